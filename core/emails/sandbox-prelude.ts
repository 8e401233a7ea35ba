/**
 * Guest-side code evaluated inside the QuickJS sandbox before a template: a small JSX runtime
 * that renders straight to HTML (`h`, `Fragment`), the email components templates import from
 * `@react-email/components` and `@stackframe/emails`, and a `require` that serves only those
 * modules. The guest has no `process`, file system or network.
 */
export const SANDBOX_PRELUDE = String.raw`
var Fragment = function Fragment(props) { return props.children; };
var __meta = { subject: null, category: null };
function h(type, props) {
  var children = Array.prototype.slice.call(arguments, 2);
  var p = Object.assign({}, props || {});
  if (children.length === 1) p.children = children[0]; else if (children.length > 1) p.children = children;
  return { __el: true, type: type, props: p };
}
var __voidTags = { area: 1, br: 1, col: 1, hr: 1, img: 1, input: 1, link: 1, meta: 1, source: 1, wbr: 1 };
function __esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'); }
function __css(style) {
  return Object.keys(style).map(function (k) {
    var v = style[k];
    if (v === null || v === undefined || v === false) return '';
    var name = k.replace(/[A-Z]/g, function (m) { return '-' + m.toLowerCase(); });
    return name + ':' + (typeof v === 'number' && v !== 0 && !/^(line-height|font-weight|opacity|z-index|flex)/.test(name) ? v + 'px' : v);
  }).filter(Boolean).join(';');
}
function __attrs(props) {
  var out = '';
  Object.keys(props).forEach(function (k) {
    if (k === 'children' || k === 'key' || k === 'ref' || k === 'dangerouslySetInnerHTML') return;
    var v = props[k];
    if (v === null || v === undefined || v === false || typeof v === 'function') return;
    var name = k === 'className' ? 'class' : k === 'htmlFor' ? 'for' : k;
    if (name === 'style' && typeof v === 'object') v = __css(v);
    out += v === true ? ' ' + name : ' ' + name + '="' + __esc(v) + '"';
  });
  return out;
}
function renderToString(node) {
  if (node === null || node === undefined || node === false || node === true) return '';
  if (Array.isArray(node)) return node.map(renderToString).join('');
  if (typeof node === 'string' || typeof node === 'number') return __esc(node);
  if (!node.__el) return __esc(String(node));
  if (typeof node.type === 'function') return renderToString(node.type(node.props));
  var tag = String(node.type);
  var inner = node.props.dangerouslySetInnerHTML ? String(node.props.dangerouslySetInnerHTML.__html) : renderToString(node.props.children);
  if (__voidTags[tag]) return '<' + tag + __attrs(node.props) + '/>';
  return '<' + tag + __attrs(node.props) + '>' + inner + '</' + tag + '>';
}
function __tag(tag, base) {
  return function (props) { var p = Object.assign({}, base || {}, props); return h(tag, p, p.children); };
}
var __components = {
  Html: function (p) { return h(Fragment, null, h('html', Object.assign({ lang: 'en' }, p, { children: undefined }), p.children)); },
  Head: __tag('head'), Body: __tag('body'), Container: __tag('div', { style: { maxWidth: '37.5em', margin: '0 auto' } }),
  Section: __tag('section'), Row: __tag('div'), Column: __tag('div'), Text: __tag('p', { style: { fontSize: 14, lineHeight: '24px', margin: '16px 0' } }),
  Heading: function (p) { return h(p.as || 'h1', Object.assign({}, p, { as: undefined }), p.children); },
  Link: __tag('a'), Button: __tag('a', { style: { display: 'inline-block', textDecoration: 'none' } }), Img: __tag('img'), Hr: __tag('hr'),
  Preview: function (p) { return h('div', { style: { display: 'none', overflow: 'hidden', maxHeight: 0 } }, p.children); },
  Tailwind: function (p) { return p.children; }, Font: function () { return null; }, Markdown: function (p) { return h('div', null, p.children); },
  CodeBlock: function (p) { return h('pre', null, p.code || p.children); }, CodeInline: __tag('code'),
};
var __emails = {
  Subject: function (p) { __meta.subject = String(p.value); return null; },
  NotificationCategory: function (p) { __meta.category = String(p.value); return null; },
};
var __modules = {
  'react': { createElement: h, Fragment: Fragment, default: { createElement: h, Fragment: Fragment } },
  'react/jsx-runtime': { jsx: function (t, p) { return h(t, p); }, jsxs: function (t, p) { return h(t, p); }, Fragment: Fragment },
  '@react-email/components': __components,
  '@stackframe/emails': __emails,
  '@gatehouse/emails': __emails,
  'arktype': { type: function () { var t = function (x) { return x; }; t.infer = undefined; return t; } },
};
function require(name) {
  if (Object.prototype.hasOwnProperty.call(__modules, name)) return __modules[name];
  throw new Error("Cannot find module '" + name + "': email templates may only import @react-email/components, @stackframe/emails and arktype");
}
function __load(code) {
  var module = { exports: {} };
  (new Function('module', 'exports', 'require', 'h', 'Fragment', code))(module, module.exports, require, h, Fragment);
  return module.exports;
}
`;
