import { FOCUS_RING, tokensCss } from '../tokens.ts';
/** The dashboard's stylesheet: the shared tokens (ui/tokens.ts), light and dark by the system setting. */
export const DASHBOARD_CSS = `
${tokensCss(':root')}
:root{--bg:var(--gh-bg);--fg:var(--gh-fg);--muted:var(--gh-muted);--card:var(--gh-card);--line:var(--gh-border);--field:var(--gh-field);--accent:var(--gh-accent);--accent-fg:var(--gh-accent-fg);--danger:var(--gh-danger);--ok:var(--gh-ok)}
body{font-family:var(--gh-font);margin:0;line-height:1.45}
body{background:var(--bg);color:var(--fg)}
*{box-sizing:border-box}
a{color:var(--accent)}
.d-app{display:flex;min-height:100vh}
.d-side{width:220px;flex:none;border-right:1px solid var(--line);padding:16px;background:var(--card)}
.d-side-head{display:flex;justify-content:space-between;align-items:center;gap:8px}
.d-btn.d-menu-btn{display:none}
.d-skip{position:absolute;left:8px;top:-48px;z-index:20;background:var(--card);color:var(--accent);padding:8px 12px;border:2px solid var(--accent);border-radius:6px}
.d-skip:focus{top:8px}
:focus-visible{${FOCUS_RING}}
.d-main:focus,.d-main h1:focus{outline:none}
.d-scroll{overflow-x:auto;max-width:100%}
.d-side nav a{display:block;padding:6px 8px;border-radius:6px;text-decoration:none;color:var(--fg)}
.d-side nav a[aria-current=page]{background:var(--bg);font-weight:600}
.d-brand{font-weight:700;margin-bottom:16px;display:flex;align-items:center;gap:8px;text-decoration:none;color:var(--fg)}
.d-main{flex:1;padding:24px;max-width:1200px;min-width:0;overflow-wrap:anywhere}
.d-top{display:flex;justify-content:space-between;align-items:center;margin-bottom:16px;gap:12px;flex-wrap:wrap}
.d-top h1{margin:0;font-size:1.4rem}
.d-card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px;margin-bottom:16px}
.d-card-head{display:flex;justify-content:space-between;align-items:center;gap:8px}
.d-card h2{font-size:1.05rem;margin:0 0 8px}
.d-muted{color:var(--muted)}
.d-btn{font:inherit;padding:6px 12px;border-radius:6px;border:1px solid var(--line);background:var(--card);color:var(--fg);cursor:pointer}
.d-btn:disabled,.d-btn[aria-disabled=true]{opacity:.6;cursor:not-allowed}
.d-confirm-wrap{display:inline}
.d-primary{background:var(--accent);border-color:var(--accent);color:var(--accent-fg)}
.d-danger{border-color:var(--danger);color:var(--danger)}
.d-small{padding:2px 8px;font-size:.85rem}
.d-link{background:none;border:none;color:var(--accent);cursor:pointer;font:inherit;padding:0 4px}
.d-form{display:flex;flex-direction:column;gap:10px;max-width:560px}
.d-field{display:flex;flex-direction:column;gap:4px}
.d-field{min-width:0}
.d-field input,.d-field select,textarea,select,input[type=search]{font:inherit;padding:6px 8px;border:1px solid var(--field);border-radius:6px;background:var(--bg);color:var(--fg);max-width:100%;min-width:0}
.d-field input[aria-invalid=true],textarea[aria-invalid=true]{border-color:var(--danger)}
.d-field-error{color:var(--danger)}
.d-error{color:var(--danger);border:1px solid var(--danger);border-radius:6px;padding:8px;margin:8px 0;display:flex;gap:8px;justify-content:space-between;white-space:pre-wrap}
.d-ok{color:var(--ok)}
.d-empty{color:var(--muted);padding:16px;text-align:center;border:1px dashed var(--line);border-radius:8px}
.d-loading{color:var(--muted);display:flex;gap:8px;align-items:center;padding:8px}
.d-spinner{width:14px;height:14px;border:2px solid var(--line);border-top-color:var(--accent);border-radius:50%;animation:d-spin 1s linear infinite}
@keyframes d-spin{to{transform:rotate(360deg)}}
.d-toggle{display:flex;gap:8px;align-items:center;padding:4px 0}
.d-confirm{display:inline-flex;gap:6px;align-items:center;flex-wrap:wrap}
li .d-btn{padding:0 6px;font-size:.8rem;margin-left:6px}
table.d-table{width:100%;border-collapse:collapse}
.d-table th,.d-table td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
.d-table th button{font:inherit;font-weight:600;background:none;border:none;color:var(--fg);cursor:pointer;padding:0}
.d-row{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.d-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(260px,100%),1fr));gap:16px}
.d-stat{font-size:2rem;font-weight:700}
.d-secret{font-family:ui-monospace,monospace;word-break:break-all;background:var(--bg);padding:4px 6px;border-radius:4px}
pre.d-snippet{background:var(--bg);padding:8px;border-radius:6px;overflow:auto}
textarea.d-code{font-family:ui-monospace,monospace;width:100%;min-height:220px}
iframe.d-preview{width:100%;min-height:320px;border:1px solid var(--line);border-radius:6px;background:#fff}
.d-tree ul{list-style:none;padding-left:18px;margin:2px 0}
.d-tree>ul{padding-left:0}
.d-auth{max-width:380px;margin:10vh auto;padding:24px}
/* uPlot chart layout (the overview charts) */
.uplot{width:min-content}.uplot canvas{display:block;position:relative;width:100%;height:100%}
.u-wrap{position:relative;user-select:none}.u-over,.u-under,.u-axis,.u-select,.u-cursor-x,.u-cursor-y,.u-cursor-pt{position:absolute}
.u-under{overflow:hidden}.u-select{background:rgba(0,0,0,.07);pointer-events:none}
.u-cursor-x,.u-cursor-y,.u-cursor-pt{left:0;top:0;pointer-events:none}.u-cursor-pt{border-radius:50%}
.u-hz .u-cursor-x{height:100%;border-right:1px dashed #888}.u-hz .u-cursor-y{width:100%;border-bottom:1px dashed #888}
.u-cursor-x.u-off,.u-cursor-y.u-off,.u-select.u-off,.u-cursor-pt.u-off{display:none}
@media (max-width:760px){
.d-app{flex-direction:column}
.d-side{width:auto;border-right:none;border-bottom:1px solid var(--line);padding:10px 16px}
.d-brand{margin-bottom:0}
.d-btn.d-menu-btn{display:inline-flex}
.d-side:not([data-open]) .d-nav{display:none}
.d-nav{margin-top:12px}
.d-main{padding:16px 12px}
.d-card{padding:12px}
.d-row>.d-field{flex:1 1 100%}
.d-field input,.d-field select,textarea{width:100%}
.d-auth{margin:16px auto;padding:16px}
}
.d-chat{display:grid;grid-template-columns:minmax(160px,240px) minmax(0,1fr);gap:16px;align-items:start}
.d-chat>*{min-width:0}
.d-chat-snippet pre{max-width:100%}
.d-chat-threads ul{list-style:none;padding:0;margin:0}
.d-chat-threads li{display:flex;justify-content:space-between;align-items:center;gap:4px;padding:2px 0}
.d-chat-thread{text-align:left;overflow-wrap:anywhere;padding:4px 0}
.d-chat-thread[aria-current=true]{font-weight:700}
.d-chat-log{max-height:60vh;min-height:160px;overflow-y:auto;display:flex;flex-direction:column;gap:12px;margin-bottom:12px}
.d-chat-msg{border:1px solid var(--line);border-radius:8px;padding:8px 12px}
.d-chat-user{background:var(--bg)}
.d-chat-who{font-weight:600;font-size:.85rem;margin-bottom:4px}
.d-chat-prose{white-space:pre-wrap;margin:4px 0}
.d-chat-tool{font-size:.85rem;margin:4px 0}
.d-chat-snippet .d-row{justify-content:space-between}
.d-chat-form textarea{width:100%}
.d-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media (max-width:760px){.d-chat{grid-template-columns:minmax(0,1fr)}}
/* Every data table becomes one card per row on phones (and at 400 % zoom): no sideways scroll.
   Cells are labelled by their column (data-label, filled in by TableScroll); sortable headers stay. */
@media (max-width:640px){
table.d-table,table.d-table tbody,table.d-table tr,table.d-table td{display:block;width:100%}
table.d-table thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
table.d-table thead:has(button){position:static;display:block;width:auto;height:auto;clip:auto}
table.d-table thead:has(button) tr{display:flex;flex-wrap:wrap;gap:8px;border:none;padding:0 0 8px}
table.d-table thead:has(button) th{border:none;padding:0}
table.d-table thead:has(button) th:empty,table.d-table thead:has(button) th:not(:has(button)){display:none}
table.d-table tbody tr{border:1px solid var(--line);border-radius:8px;padding:8px;margin-bottom:8px}
table.d-table td{border:none;padding:2px 0;overflow-wrap:anywhere}
table.d-table td[data-label]:not([data-label=""])::before{content:attr(data-label) ": ";font-weight:600}
}
.d-badge{display:inline-block;padding:0 6px;border-radius:10px;border:1px solid var(--line);font-size:.8rem}
/* Controls of the design system (ui/tokens.ts): switch, select, dialog, toast, skeleton, copy, icons. */
.gh-icon{flex:none;vertical-align:-3px}
.d-btn{display:inline-flex;align-items:center;gap:6px;border-radius:var(--gh-radius-sm)}
.d-icon-btn{padding:4px 6px}
.d-switch{flex:none;position:relative;width:38px;height:22px;border-radius:var(--gh-radius-full);border:1px solid var(--field);background:var(--gh-skeleton);padding:0;cursor:pointer}
.d-switch-thumb{position:absolute;top:2px;left:2px;width:16px;height:16px;border-radius:50%;background:var(--muted);transition:transform .15s}
.d-switch[aria-checked=true]{background:var(--accent);border-color:var(--accent)}
.d-switch[aria-checked=true] .d-switch-thumb{transform:translateX(16px);background:var(--accent-fg)}
.d-switch:disabled{opacity:.6;cursor:not-allowed}
@media (prefers-reduced-motion:reduce){.d-switch-thumb{transition:none}}
select{appearance:none;-webkit-appearance:none;padding-right:30px!important;background-image:url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='16' height='16' viewBox='0 0 24 24' fill='none' stroke='%23888' stroke-width='2'%3E%3Cpath d='m6 9 6 6 6-6'/%3E%3C/svg%3E");background-repeat:no-repeat;background-position:right 8px center;border-radius:var(--gh-radius-sm);cursor:pointer}
.d-backdrop{position:fixed;inset:0;background:rgba(10,12,16,.55);display:flex;align-items:flex-start;justify-content:center;padding:10vh 16px 16px;z-index:50;overflow-y:auto}
.d-dialog{background:var(--card);color:var(--fg);border:1px solid var(--line);border-radius:var(--gh-radius-lg);box-shadow:var(--gh-shadow);padding:var(--gh-space-5);width:100%;max-width:560px;min-width:0}
.d-dialog h2{font-size:var(--gh-text-lg);margin:0}
.d-dialog .d-form{margin-top:var(--gh-space-4)}
.d-toasts{position:fixed;right:16px;bottom:16px;display:flex;flex-direction:column;gap:8px;z-index:60;max-width:calc(100vw - 32px)}
.d-toast{background:var(--fg);color:var(--bg);border-radius:var(--gh-radius-md);padding:10px 14px;box-shadow:var(--gh-shadow);font-size:var(--gh-text-sm)}
.d-toast-error{background:var(--danger);color:var(--card)}
.d-skeleton{height:12px;border-radius:var(--gh-radius-sm);background:var(--gh-skeleton);margin:10px 8px;animation:d-pulse 1.4s ease-in-out infinite}
@keyframes d-pulse{50%{opacity:.5}}
@media (prefers-reduced-motion:reduce){.d-skeleton,.d-spinner{animation:none}}
.d-empty-action{margin-top:12px;display:flex;justify-content:center;gap:8px;flex-wrap:wrap}
.d-copy-value{display:inline-flex;gap:6px;align-items:center;max-width:100%;min-width:0;flex-wrap:wrap}
.d-copy-value .d-secret{min-width:0}
.d-nav-group{margin:16px 0 4px;padding:0 8px;font-size:var(--gh-text-xs);font-weight:700;letter-spacing:.04em;text-transform:uppercase;color:var(--muted)}
.d-side nav a{display:flex;align-items:center;gap:8px}
.d-palette-btn{width:100%;justify-content:space-between;margin:4px 0 8px;color:var(--muted)}
.d-kbd{font-family:var(--gh-mono);font-size:var(--gh-text-xs);border:1px solid var(--line);border-radius:4px;padding:0 4px}
.d-palette{padding:0;max-width:600px}
.d-palette input{width:100%;font:inherit;font-size:var(--gh-text-lg);padding:14px 16px;border:none;border-bottom:1px solid var(--line);background:transparent;color:var(--fg);border-radius:var(--gh-radius-lg) var(--gh-radius-lg) 0 0}
.d-palette ul{list-style:none;margin:0;padding:6px;max-height:50vh;overflow-y:auto}
.d-palette li{display:flex;gap:10px;align-items:center;padding:8px 10px;border-radius:var(--gh-radius-sm);cursor:pointer}
.d-palette li[aria-selected=true]{background:var(--gh-accent-soft);outline:2px solid var(--accent)}
.d-palette-kind{margin-left:auto;font-size:var(--gh-text-xs);color:var(--muted)}
.d-checklist{list-style:none;padding:0;margin:0}
.d-checklist li{display:flex;gap:10px;align-items:flex-start;padding:8px 0;border-bottom:1px solid var(--line)}
.d-checklist li:last-child{border-bottom:none}
.d-check{flex:none;width:22px;height:22px;border-radius:50%;border:2px solid var(--field);display:inline-flex;align-items:center;justify-content:center;color:var(--accent-fg)}
.d-check[data-done]{background:var(--ok);border-color:var(--ok)}
.d-progress{height:6px;border-radius:var(--gh-radius-full);background:var(--gh-skeleton);overflow:hidden;margin:4px 0 12px}
.d-progress>span{display:block;height:100%;background:var(--ok)}
/* User and team detail pages (issue 28): status badges wrap, never scroll sideways. */
.d-badges{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:6px 0 0;padding:0}
.d-user-status img{flex:none}
.d-combo{position:relative;max-width:420px}
.d-combo-list{position:absolute;z-index:20;left:0;right:0;top:100%;margin:2px 0 0;padding:4px;list-style:none;background:var(--card);border:1px solid var(--line);border-radius:var(--gh-radius-sm);box-shadow:var(--gh-shadow);max-height:240px;overflow:auto}
.d-combo-list li{padding:6px 8px;border-radius:var(--gh-radius-sm);cursor:pointer;overflow-wrap:anywhere}
.d-combo-list li[aria-selected=true]{background:var(--gh-accent-soft);outline:2px solid var(--accent)}
`;
