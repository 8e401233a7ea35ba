import { accessibilitySuite } from './accessibility-suite.ts';

// Axe, sideways scrolling and keyboard checks (test/browser/accessibility-suite.ts): desktop.
accessibilitySuite('desktop');
