/**
 * The inline script of a server-rendered hosted page (ui/hosted/server-render.tsx) that holds what
 * a visitor does before the page's script has run; ./early-input.ts takes the held actions over.
 * Kept apart from it so the browser bundle does not carry the script's text.
 */

/** Where the inline script keeps the held actions (`[kind, index]` in the server markup) and its `stop`. */
export const EARLY_INPUT_GLOBAL = '__gatehouseEarly';

/**
 * The inline script, sent in the page's head under the page's nonce, before the markup: listens on
 * the document (capture phase) from before the form is parsed, so a submit or a click is held from
 * the moment the form is on screen. Holds a submit of a form in the server-rendered root (default
 * prevented), and a click on a link or a button there that is not a submit button (a submit
 * button's click becomes the form's submit). Records the form's index among the root's forms, or the
 * element's among its links and buttons; does nothing once the root is no longer the server's
 * markup; `stop()` removes both listeners.
 */
// A plain literal (esbuild keeps a concatenation in every bundle that imports this file): the name after
// `window.` is EARLY_INPUT_GLOBAL's; test/browser/hosted-server-render.test.ts fails if they part.
export const EARLY_INPUT_SCRIPT =
  "(function(){var d=document,h=[],I=Array.prototype.indexOf;function R(t){var r=d.getElementById('root');return r&&r.hasAttribute('data-server-rendered')&&t&&r.contains(t)?r:null}function s(e){var r=R(e.target);if(!r)return;e.preventDefault();h.push(['submit',I.call(r.querySelectorAll('form'),e.target)])}function c(e){var b=e.target&&e.target.closest&&e.target.closest('a,button'),r=R(b);if(!r||(b.tagName==='BUTTON'&&b.type==='submit'))return;e.preventDefault();h.push(['click',I.call(r.querySelectorAll('a,button'),b)])}d.addEventListener('submit',s,true);d.addEventListener('click',c,true);window.__gatehouseEarly={held:h,stop:function(){d.removeEventListener('submit',s,true);d.removeEventListener('click',c,true)}}})();";
