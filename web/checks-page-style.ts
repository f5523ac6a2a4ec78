/**
 * The checks page's stylesheet, inlined into the one HTML document (no external assets). System
 * fonts, one column that reads on a 320 px phone and widens to a two-column breakdown on a desk,
 * colours with at least 4.5:1 contrast in light and dark mode, and status never shown by colour
 * alone (every pill has an icon and a word).
 */
export const CHECKS_PAGE_STYLE = `
:root{
  --bg:#f5f7fa;--surface:#fff;--surface-2:#f9fafb;--text:#111827;--muted:#4b5563;--faint:#6b7280;--border:#e3e7ed;
  --accent:#1d4ed8;--accent-hover:#1e40af;--accent-soft:#dbeafe;--focus:#2563eb;
  --pass:#05603a;--pass-bg:#e7f8ef;--pass-line:#a6e3c4;
  --warn:#8a4b00;--warn-bg:#fff6e0;--warn-line:#f5d48a;
  --fail:#b42318;--fail-bg:#fef1f0;--fail-line:#f8c4be;
  --error:#475467;--error-bg:#eef1f5;--error-line:#cfd5de;
  --info:#1d4ed8;--info-bg:#eef4ff;
  --grade-a:#05794a;--grade-b:#4d7c0f;--grade-c:#a15c07;--grade-d:#c2410c;--grade-f:#b42318;--grade-none:#667085;
  --shadow:0 1px 2px rgba(16,24,40,.05),0 1px 3px rgba(16,24,40,.06);
  --radius:14px;--skeleton:#e8ecf1;
  color-scheme:light dark;
}
@media (prefers-color-scheme:dark){
  :root{
    --bg:#0b0f17;--surface:#131a25;--surface-2:#182130;--text:#eef2f7;--muted:#b3bdcc;--faint:#95a1b3;--border:#263244;
    --accent:#7aa7ff;--accent-hover:#a3c1ff;--accent-soft:#1a2a48;--focus:#7aa7ff;
    --pass:#6ee7a8;--pass-bg:#0f2a1e;--pass-line:#1d5a3d;
    --warn:#fcd17a;--warn-bg:#2e2410;--warn-line:#6b5218;
    --fail:#ff9b91;--fail-bg:#33161a;--fail-line:#6e2a2a;
    --error:#c4cdd9;--error-bg:#1f2835;--error-line:#3a4658;
    --info:#9ec0ff;--info-bg:#16233d;
    --shadow:0 1px 2px rgba(0,0,0,.4);--skeleton:#222c3b;
  }
}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;-webkit-font-smoothing:antialiased}
a{color:var(--accent)}
a:hover{color:var(--accent-hover)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:.875em}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;border-radius:6px}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.skip{position:absolute;left:8px;top:-48px;background:var(--surface);padding:8px 12px;border-radius:8px;z-index:2}
.skip:focus{top:8px}

.topbar{border-bottom:1px solid var(--border);background:var(--surface)}
.topbar-inner{max-width:960px;margin:0 auto;padding:12px 20px;display:flex;align-items:center;justify-content:space-between;gap:12px}
.brand{white-space:nowrap;display:flex;align-items:center;gap:10px;font-weight:700;letter-spacing:-.01em;color:var(--text);text-decoration:none}
.brand-mark{width:28px;height:28px;border-radius:8px;background:#1d4ed8;display:grid;place-items:center;color:#fff;flex:none}
.topbar nav{display:flex;gap:16px;font-size:.9rem}
.topbar nav a{color:var(--muted);text-decoration:none;white-space:nowrap}
.topbar nav a:hover{color:var(--text);text-decoration:underline}

.hero{max-width:960px;margin:0 auto;padding:40px 20px 8px}
.hero h1{font-size:clamp(1.6rem,4.5vw,2.35rem);line-height:1.15;letter-spacing:-.02em;margin:0 0 10px}
.hero p{color:var(--muted);margin:0 0 24px;max-width:640px;font-size:1.05rem}
.search{display:flex;gap:10px;flex-wrap:wrap;max-width:640px}
.search label{flex-basis:100%;font-weight:600;font-size:.95rem}
.field{flex:1 1 240px;min-width:0;position:relative}
.field input{width:100%;font:inherit;font-size:1.05rem;padding:13px 14px;border:1.5px solid var(--border);border-radius:10px;background:var(--surface);color:var(--text);box-shadow:var(--shadow)}
.field input::placeholder{color:var(--faint)}
.field input:focus{outline:none;border-color:var(--focus);box-shadow:0 0 0 4px var(--accent-soft)}
.field input[aria-invalid=true]{border-color:var(--fail)}
.btn{font:inherit;font-weight:650;font-size:1rem;padding:13px 22px;border:0;border-radius:10px;background:var(--accent);color:#fff;cursor:pointer;display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:48px;flex:0 0 auto}
@media (prefers-color-scheme:dark){.btn{color:#0b0f17}}
.btn:hover{background:var(--accent-hover)}
.btn[disabled]{opacity:.75;cursor:progress}
.search .hint{flex-basis:100%;color:var(--faint);font-size:.875rem;margin:2px 0 0}
.nowrap{white-space:nowrap}
.input-error{color:var(--fail);font-weight:600}
.input-error:empty{display:none}
.input-note{color:var(--muted)}
.input-note:empty{display:none}
.hint button{font:inherit;color:var(--accent);background:none;border:0;padding:0;cursor:pointer;text-decoration:underline}
.spinner{width:16px;height:16px;border:2.5px solid currentColor;border-right-color:transparent;border-radius:50%;animation:spin .7s linear infinite;display:none}
[aria-busy=true] .spinner,.btn[disabled] .spinner{display:inline-block}
@keyframes spin{to{transform:rotate(360deg)}}

main{max-width:960px;margin:0 auto;padding:16px 20px 48px}
.section-title{font-size:1.15rem;margin:32px 0 12px;letter-spacing:-.01em}
.card{background:var(--surface);border:1px solid var(--border);border-radius:var(--radius);box-shadow:var(--shadow)}
.notice{padding:16px 18px;border-radius:12px;border:1px solid var(--fail-line);background:var(--fail-bg);color:var(--text);margin-top:20px}
.notice strong{color:var(--fail)}
.notice .error-detail{margin:4px 0 0}
details.tech{color:var(--muted);font-size:.85rem;margin:8px 2px 0}
details.tech>summary{cursor:pointer;color:var(--accent);font-weight:600;width:max-content}
details.tech ul{margin:6px 0 0;padding-left:18px;overflow-wrap:anywhere}
.notice.soft{border-color:var(--border);background:var(--surface-2)}

.summary{padding:22px;display:grid;grid-template-columns:auto 1fr;gap:18px 22px;align-items:center;margin-top:12px}
.grade{width:92px;height:92px;border-radius:22px;display:grid;place-items:center;color:#fff;font-size:3rem;font-weight:800;line-height:1;letter-spacing:-.03em;background:var(--grade-none)}
.grade[data-grade=A]{background:var(--grade-a)}.grade[data-grade=B]{background:var(--grade-b)}.grade[data-grade=C]{background:var(--grade-c)}
.grade[data-grade=D]{background:var(--grade-d)}.grade[data-grade=F]{background:var(--grade-f)}
.grade.none{font-size:1.9rem}
.summary h2{margin:0;font-size:1.35rem;letter-spacing:-.01em;overflow-wrap:anywhere}
.summary .score{color:var(--muted);font-weight:600;margin:2px 0 6px}
.summary .score b{color:var(--text);font-size:1.1rem}
.summary p{margin:0}
.summary .sentence{grid-column:1/-1;color:var(--muted);margin:0}
.tally{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:8px;margin:0;padding:0;list-style:none}
.caps{grid-column:1/-1;margin:0;padding:10px 12px;border-radius:10px;background:var(--warn-bg);border:1px solid var(--warn-line);font-size:.925rem}

.pill{display:inline-flex;align-items:center;gap:6px;font-size:.8rem;font-weight:700;letter-spacing:.02em;text-transform:uppercase;padding:3px 10px 3px 8px;border-radius:999px;border:1px solid;white-space:nowrap}
.pill svg{width:14px;height:14px;flex:none}
.pill[data-status=pass]{color:var(--pass);background:var(--pass-bg);border-color:var(--pass-line)}
.pill[data-status=warn]{color:var(--warn);background:var(--warn-bg);border-color:var(--warn-line)}
.pill[data-status=fail]{color:var(--fail);background:var(--fail-bg);border-color:var(--fail-line)}
.pill[data-status=error]{color:var(--error);background:var(--error-bg);border-color:var(--error-line)}

.grid{display:grid;gap:16px;grid-template-columns:1fr;align-items:start}
@media (min-width:820px){.grid.two{grid-template-columns:1.15fr 1fr}}
.panel{padding:18px 20px}
.panel h3{margin:0 0 12px;font-size:1rem}
.parts{list-style:none;margin:0;padding:0;display:grid;gap:14px}
.part-head{display:flex;justify-content:space-between;gap:10px;align-items:baseline;font-weight:600}
.part-head .pts{font-variant-numeric:tabular-nums;color:var(--muted);font-weight:600;font-size:.9rem;white-space:nowrap}
.bar{height:8px;border-radius:99px;background:var(--surface-2);border:1px solid var(--border);overflow:hidden;margin:6px 0 4px}
.bar span{display:block;height:100%;border-radius:99px;background:var(--pass)}
.bar[data-status=warn] span{background:#d97706}.bar[data-status=fail] span{background:var(--fail)}.bar[data-status=error] span{background:var(--error)}
.part-detail{color:var(--muted);font-size:.875rem;margin:0}
.fixes{margin:0;padding:0;list-style:none;display:grid;gap:12px;counter-reset:fix}
.fixes li{display:grid;gap:4px}
.fix-head{display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.fixes .gain{font-variant-numeric:tabular-nums;font-weight:700;font-size:.85rem;color:var(--pass);background:var(--pass-bg);border:1px solid var(--pass-line);border-radius:8px;padding:1px 8px;white-space:nowrap}
.fixes .gain.sev-error{color:var(--fail);background:var(--fail-bg);border-color:var(--fail-line)}
.fixes .gain.sev-warning{color:var(--warn);background:var(--warn-bg);border-color:var(--warn-line)}
.fixes .what{margin:0;overflow-wrap:anywhere}
.panel h4.sub{margin:18px 0 10px;font-size:.9rem;color:var(--muted);padding-top:14px;border-top:1px solid var(--border)}
.fixes .tag{color:var(--faint);font-size:.8rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.empty{color:var(--muted);margin:0}

.checks{display:grid;gap:12px}
.check{padding:0;overflow:hidden}
.check-head{display:grid;grid-template-columns:1fr auto;gap:0 12px;align-items:center;padding:16px 18px 0}
.check-head h3{margin:0;font-size:1.05rem}
.check-head .blurb{grid-column:1/-1;color:var(--faint);font-size:.85rem;margin:2px 0 0}
.check-body{padding:8px 18px 14px}
.check-body .sentence{margin:0;overflow-wrap:anywhere}
.findings{list-style:none;margin:10px 0 0;padding:0;display:grid;gap:8px}
.finding{display:grid;grid-template-columns:18px 1fr;gap:8px;font-size:.925rem;overflow-wrap:anywhere}
.finding svg{width:18px;height:18px;margin-top:2px}
.finding[data-severity=error] svg{color:var(--fail)}.finding[data-severity=warning] svg{color:#b76e00}.finding[data-severity=info] svg{color:var(--info)}
@media (prefers-color-scheme:dark){.finding[data-severity=warning] svg{color:var(--warn)}}
.finding code{color:var(--faint);font-size:.78rem;margin-left:6px;white-space:nowrap}
details.more{border-top:1px solid var(--border);background:var(--surface-2)}
details.more>summary{cursor:pointer;padding:11px 18px;font-weight:600;font-size:.925rem;color:var(--accent);list-style:none;display:flex;align-items:center;gap:8px}
details.more>summary::-webkit-details-marker{display:none}
details.more>summary::before{content:"";width:7px;height:7px;border-right:2px solid currentColor;border-bottom:2px solid currentColor;transform:rotate(-45deg);transition:transform .15s}
details.more[open]>summary::before{transform:rotate(45deg)}
.detail{padding:2px 18px 18px;min-width:0}
.kv{display:grid;grid-template-columns:minmax(110px,34%) 1fr;gap:6px 14px;margin:0;font-size:.9rem}
.kv dt{color:var(--muted);font-weight:600;overflow-wrap:anywhere}
.kv dd{margin:0;min-width:0;overflow-wrap:anywhere}
.kv dt.wide,.kv dd.wide{grid-column:1/-1}
.kv dt.wide{margin-top:6px}
.kv dd.wide{margin-bottom:6px}
.kv dd.wide>.kv{padding-left:12px;border-left:2px solid var(--border)}
.kv .kv{font-size:1em}
.kv .null{color:var(--faint)}
.items{margin:0;padding:0;list-style:none;display:grid;gap:8px}
.items>li{border:1px solid var(--border);border-radius:10px;padding:8px 10px;background:var(--surface)}
.chips{display:flex;flex-wrap:wrap;gap:4px;margin:0;padding:0;list-style:none}
.chips li{background:var(--surface);border:1px solid var(--border);border-radius:6px;padding:0 6px;font-size:.85em}
.table-wrap{overflow-x:auto;border:1px solid var(--border);border-radius:10px;background:var(--surface);max-width:100%}
table{border-collapse:collapse;width:100%;font-size:.85rem}
th,td{text-align:left;padding:6px 10px;border-bottom:1px solid var(--border);vertical-align:top}
th{color:var(--muted);font-weight:600;white-space:nowrap;background:var(--surface-2)}
tr:last-child td{border-bottom:0}
td.short{white-space:nowrap}
td.long{min-width:16em;overflow-wrap:anywhere}
.raw{margin-top:14px}
.raw-head{display:flex;justify-content:space-between;align-items:center;gap:8px;margin-bottom:6px}
.raw-head h4{margin:0;font-size:.85rem;color:var(--muted)}
.copy{font:inherit;font-size:.8rem;font-weight:600;padding:4px 10px;border:1px solid var(--border);border-radius:8px;background:var(--surface);color:var(--text);cursor:pointer}
pre.json{margin:0;padding:12px;border-radius:10px;background:var(--surface);border:1px solid var(--border);overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-all;font-size:.8rem;line-height:1.5}

.skeleton{position:relative;overflow:hidden;background:var(--skeleton);border-radius:8px}
.skeleton::after{content:"";position:absolute;inset:0;transform:translateX(-100%);background:linear-gradient(90deg,transparent,rgba(255,255,255,.55),transparent);animation:shimmer 1.2s infinite}
@media (prefers-color-scheme:dark){.skeleton::after{background:linear-gradient(90deg,transparent,rgba(255,255,255,.06),transparent)}}
@keyframes shimmer{to{transform:translateX(100%)}}
@media (prefers-reduced-motion:reduce){.skeleton::after,.spinner{animation:none}}
.loading-card{padding:22px;margin-top:12px;display:grid;grid-template-columns:92px 1fr;gap:22px;align-items:center}
.loading-card .skeleton.big{width:92px;height:92px;border-radius:22px}
.lines{display:grid;gap:10px}
.lines .skeleton{height:14px}
.loading-check{padding:18px;display:grid;gap:10px}
.loading-check .skeleton{height:12px}

.about{margin-top:40px;color:var(--muted);font-size:.9rem;border-top:1px solid var(--border);padding-top:20px}
.about p{margin:0 0 8px}
.about code{overflow-wrap:anywhere}
.timing{color:var(--faint);font-size:.85rem;margin:10px 2px 0}

@media (max-width:560px){
  .topbar-inner{padding:12px 16px}
  .topbar nav{gap:14px}
  .hero,main{padding-left:16px;padding-right:16px}
  .hero{padding-top:28px}
  .btn{flex:1 1 100%}
  .summary{grid-template-columns:auto 1fr;padding:18px;gap:14px 16px}
  .grade{width:72px;height:72px;font-size:2.4rem;border-radius:18px}
  .grade.none{font-size:1.5rem}
  .loading-card{grid-template-columns:72px 1fr}
  .loading-card .skeleton.big{width:72px;height:72px}
  .kv{grid-template-columns:1fr;gap:0}
  .kv dd{margin-bottom:8px}
  /* Inside a list item the labels are short: keep label and value side by side, it halves the height. */
  .items .kv{grid-template-columns:minmax(84px,38%) 1fr;gap:2px 10px}
  .items .kv dd{margin-bottom:0}
  .items .kv dt.wide{margin-top:6px}
  .panel{padding:16px}
}
`;
