/**
 * The inline script of a server-rendered hosted page (ui/hosted/server-render.tsx) that holds what
 * a visitor does before the page's script has run; ./early-input.ts takes the held actions over.
 * Kept apart from it so the browser bundle does not carry the script's text.
 */

/** Where the inline script keeps the held actions (`[kind, index]` in the server markup) and its `stop`. */
export const EARLY_INPUT_GLOBAL = '__gatehouseEarly';

/**
 * The inline script, sent right after the root element under the page's nonce: gives each of the
 * root's forms a submit listener that holds the submit (default prevented), and holds each click on
 * a link or a button that is not a submit button (a submit button's click becomes the form's
 * submit). Records the form's index among the root's forms, or the element's among its links and
 * buttons; `stop()` removes every listener.
 */
// A plain literal (esbuild keeps a concatenation in every bundle that imports this file): the name after
// `window.` is EARLY_INPUT_GLOBAL's; test/browser/hosted-server-render.test.ts fails if they part.
export const EARLY_INPUT_SCRIPT =
  "(function(){var r=document.getElementById('root');if(!r)return;var h=[],I=Array.prototype.indexOf,F=r.querySelectorAll('form'),n;function s(e){e.preventDefault();h.push(['submit',I.call(r.querySelectorAll('form'),e.currentTarget)])}function c(e){var b=e.target&&e.target.closest&&e.target.closest('a,button');if(!b||(b.tagName==='BUTTON'&&b.type==='submit'))return;e.preventDefault();h.push(['click',I.call(r.querySelectorAll('a,button'),b)])}for(n=0;n<F.length;n++)F[n].addEventListener('submit',s);r.addEventListener('click',c,true);window.__gatehouseEarly={held:h,stop:function(){r.removeEventListener('click',c,true);for(n=0;n<F.length;n++)F[n].removeEventListener('submit',s)}}})();";
