/**
 * Guest-side code evaluated inside the QuickJS sandbox before a template: a small JSX runtime
 * (`h`, `Fragment`) whose `__serialize` calls the template's and theme's components and turns the
 * result into a data tree, the `@react-email/components` names (rendered by the real package
 * outside the sandbox, react-email-render.ts) and `@stackframe/emails`, and a `require` that
 * serves only those modules. The guest has no `process`, file system or network.
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
// A module export of @react-email/components, by name: rendered outside the sandbox by the real
// package (react-email-render.ts), so a template gets react-email's exact output.
function __reRef(name) { var f = function () { throw new Error(name + ' from @react-email/components is rendered after the template, not called'); }; f.__re = name; return f; }
var __components = {};
function __defineReactEmail(names) { names.forEach(function (name) { __components[name] = __reRef(name); }); }
var __depth = 0;
// The element tree as data: user components are called here (inside the sandbox); host tags and
// react-email components stay as nodes; functions and symbols are dropped, as React drops them.
function __value(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'function') return v.__re ? { __re: v.__re } : null;
  if (typeof v !== 'object') return v;
  if (v.__el) return { __node: __serialize(v) };
  if (Array.isArray(v)) return v.map(__value);
  var out = {};
  Object.keys(v).forEach(function (k) { out[k] = __value(v[k]); });
  return out;
}
function __props(props) {
  var out = {};
  Object.keys(props).forEach(function (k) {
    if (k === 'children' || k === 'key' || k === 'ref') return;
    var v = props[k];
    if (typeof v === 'function' && !v.__re) return;
    out[k] = __value(v);
  });
  return out;
}
function __serialize(node) {
  if (node === null || node === undefined || typeof node === 'boolean') return null;
  if (typeof node === 'string' || typeof node === 'number') return node;
  if (Array.isArray(node)) return node.map(__serialize);
  if (!node.__el) return String(node);
  if (++__depth > 1000) throw new Error('The email nests components more than 1000 deep');
  try {
    var type = node.type;
    if (type === Fragment) return __serialize(node.props.children);
    if (typeof type === 'function' && type.__re) return { re: type.__re, props: __props(node.props), children: __serialize(node.props.children) };
    if (typeof type === 'function') return __serialize(type(node.props));
    return { tag: String(type), props: __props(node.props), children: __serialize(node.props.children) };
  } finally {
    __depth--;
  }
}
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
