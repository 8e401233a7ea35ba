/** Feedback and bug reports from the dashboard and apps, mailed to the server's operator. */
export { submitFeedback } from './submit-feedback.ts';
