import { FOCUS_RING, tokensCss } from './tokens.ts';

/**
 * The components' stylesheet (tokens from ui/tokens.ts): system fonts, light and dark (`prefers-color-scheme`, or a
 * `data-theme` attribute on an ancestor), responsive down to 320 px, visible focus rings.
 */
export const GATEHOUSE_CSS = `
${tokensCss('.gh-root')}
.gh-root{font-family:var(--gh-font);color:var(--gh-fg);line-height:1.45;font-size:16px}
.gh-page{min-height:100vh;background:var(--gh-bg);display:flex;align-items:flex-start;justify-content:center;padding:48px 16px;box-sizing:border-box}
.gh-card{background:var(--gh-card);border:1px solid var(--gh-border);border-radius:var(--gh-radius-lg);padding:28px;width:100%;max-width:420px;box-sizing:border-box}
.gh-card.gh-wide{max-width:760px}
.gh-brand{display:flex;align-items:center;gap:10px;margin-bottom:18px;color:var(--gh-muted);font-weight:600}
.gh-brand img{height:32px;width:auto;max-width:160px}
.gh-root h1{font-size:1.45rem;margin:0 0 16px}
.gh-root h1:focus{outline:none}
.gh-root h2{font-size:1.1rem;margin:0 0 12px}
.gh-field{display:flex;flex-direction:column;gap:6px;margin-bottom:14px}
.gh-field label{font-weight:600;font-size:.92rem}
.gh-input{font:inherit;padding:10px 12px;border:1px solid var(--gh-field);border-radius:var(--gh-radius-md);background:transparent;color:inherit;min-width:0}
.gh-input[aria-invalid=true]{border-color:var(--gh-danger)}
.gh-root :focus-visible{${FOCUS_RING}}
.gh-btn{font:inherit;font-weight:600;padding:10px 14px;border-radius:8px;border:1px solid var(--gh-border);background:transparent;color:inherit;cursor:pointer}
.gh-btn[disabled]{opacity:.6;cursor:progress}
.gh-link{font:inherit;background:none;border:0;padding:0;color:var(--gh-accent);text-decoration:underline;cursor:pointer}
.gh-primary{background:var(--gh-accent);color:var(--gh-accent-fg);border-color:var(--gh-accent);width:100%}
.gh-danger{color:var(--gh-danger);border-color:var(--gh-danger)}
.gh-password{display:flex;gap:6px;align-items:stretch}
.gh-password .gh-input{flex:1 1 auto}
.gh-reveal{font-size:.85rem;font-weight:600;padding:6px 10px;white-space:nowrap}
.gh-reveal[aria-pressed=true]{background:var(--gh-bg)}
.gh-hint{font-size:.85rem}
.gh-provider{display:flex;align-items:center;justify-content:center;gap:10px}
.gh-provider svg{width:20px;height:20px;flex:none}
.gh-legal{font-size:.85rem;margin-top:12px}
.gh-actions{display:flex;gap:12px;flex-wrap:wrap;justify-content:space-between;align-items:center;margin:-4px 0 8px}
.gh-slot{color:var(--gh-muted)}
.gh-sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.gh-error{color:var(--gh-danger);font-size:.92rem;margin:4px 0 12px}
.gh-success{color:var(--gh-ok);margin:4px 0 12px}
.gh-muted{color:var(--gh-muted);font-size:.92rem}
.gh-root a{color:var(--gh-accent)}
.gh-row{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.gh-sep{display:flex;align-items:center;gap:10px;color:var(--gh-muted);margin:16px 0;font-size:.85rem}
.gh-sep:before,.gh-sep:after{content:"";flex:1;border-top:1px solid var(--gh-border)}
.gh-tabs{display:flex;gap:4px;margin-bottom:16px;border-bottom:1px solid var(--gh-border)}
.gh-tab{font:inherit;background:none;border:none;border-bottom:2px solid transparent;padding:8px 10px;color:var(--gh-muted);cursor:pointer}
.gh-tab[aria-selected=true]{border-color:var(--gh-accent);color:var(--gh-fg)}
.gh-section{border-top:1px solid var(--gh-border);padding:20px 0}
.gh-section:first-of-type{border-top:none}
.gh-list{list-style:none;padding:0;margin:0 0 12px}
.gh-secret-row{display:flex;gap:8px;align-items:flex-start;margin:0 0 12px;min-width:0}
.gh-secret{flex:1;min-width:0;font-family:ui-monospace,monospace;font-size:.9rem;overflow-wrap:anywhere;word-break:break-all;padding:8px 10px;border:1px solid var(--gh-border);border-radius:8px}
.gh-list li{display:flex;justify-content:space-between;gap:8px;align-items:center;padding:8px 0;border-bottom:1px solid var(--gh-border);flex-wrap:wrap}
.gh-card{overflow-wrap:anywhere}
.gh-team{flex:1 1 100%;border-left:3px solid var(--gh-border);padding-left:12px;margin:4px 0 8px}
.gh-team h3{font-size:1rem;margin:8px 0}
.gh-list li>*{min-width:0}
.gh-badge{font-size:.75rem;border:1px solid var(--gh-border);border-radius:999px;padding:1px 8px;margin-left:6px}
.gh-spinner{display:inline-block;width:18px;height:18px;border:2px solid var(--gh-border);border-top-color:var(--gh-accent);border-radius:50%;animation:gh-spin 1s linear infinite}
@keyframes gh-spin{to{transform:rotate(360deg)}}
.gh-menu{position:relative;display:inline-block}
.gh-menu [role=menu]{position:absolute;right:0;top:calc(100% + 4px);background:var(--gh-card);border:1px solid var(--gh-border);border-radius:8px;min-width:200px;max-width:calc(100vw - 16px);padding:4px;z-index:10}
.gh-menu [role=menu][data-align=start]{left:0;right:auto}
.gh-menu [role=menuitem]{display:block;width:100%;text-align:left;font:inherit;background:none;border:none;color:inherit;padding:8px 10px;border-radius:6px;cursor:pointer}
.gh-menu [role=menuitem]:hover,.gh-menu [role=menuitem]:focus{background:var(--gh-bg)}
.gh-avatar{width:32px;height:32px;border-radius:50%;display:inline-flex;align-items:center;justify-content:center;background:var(--gh-accent);color:var(--gh-accent-fg);font-weight:700;overflow:hidden}
@media (max-width:480px){.gh-password{flex-wrap:wrap}.gh-card{padding:20px;border-radius:0;border-left:none;border-right:none}.gh-page{padding:0}}
`;
