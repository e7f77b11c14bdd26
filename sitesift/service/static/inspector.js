// The sitesift inspector: sites, their clusters and learned profile, a page rendered without
// scripts with its content and noise blocks marked, and its record. Plain DOM, no framework.
"use strict";

const $ = (id) => document.getElementById(id);
const norm = (s) => (s || "").replace(/\s+/g, " ").trim();
// Styles put into the rendered page to mark blocks (the page's own scripts never run).
const MARK_CSS = `
[data-sift="content"] { outline: 2px solid #2e7d32 !important;
                        background-color: rgba(46,125,50,.12) !important; }
[data-sift="noise"] { outline: 2px solid #c62828 !important;
                      background-color: rgba(198,40,40,.12) !important; }
[data-sift-container] { box-shadow: 0 0 0 3px #1565c0 !important; }`;
// Put first in the rendered page: nothing it refers to is fetched (privacy, offline), on top
// of the inspector's own policy and the iframe sandbox that keeps scripts off.
const OFFLINE = '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
  + 'style-src \'unsafe-inline\'; img-src data:">';
// Shortest text run marked on its own (shorter ones, "Home", match any text by chance).
const MIN_RUN = 12;
const BLOCK_SELECTOR = "p,li,h1,h2,h3,h4,h5,h6,pre,blockquote,td,th,dd,dt,figcaption,div,section,article";

let current = { site: null, summary: null, page: null };

async function api(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || response.statusText);
  return body;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.onclick = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ""));
  return node;
}

function status(text) { $("status").textContent = text; }

async function loadSites() {
  const sites = await api("/sites");
  const select = $("site");
  const keep = current.site || new URLSearchParams(location.search).get("site");
  select.replaceChildren(el("option", { value: "" }, sites.length ? "(pick a site)" : "(no sites yet)"));
  for (const s of sites) {
    const label = `${s.site} — ${s.recent} recent, ${s.templates} template(s)`;
    select.append(el("option", { value: s.site }, label));
  }
  if (keep && sites.some((s) => s.site === keep)) { select.value = keep; await openSite(keep); }
  status(`${sites.length} site(s)`);
}

async function openSite(site) {
  current = { site, summary: null, page: null };
  if (!site) return;
  status(`loading ${site}…`);
  const summary = await api(`/sites/${encodeURIComponent(site)}`);
  current.summary = summary;
  renderClusters(summary);
  renderProfile(summary);
  status(`${site}: ${summary.recent.length} recent page(s)`);
}

function renderClusters(summary) {
  const box = $("clusters");
  box.replaceChildren();
  const byCluster = new Map();
  for (const page of summary.recent) {
    if (!byCluster.has(page.cluster)) byCluster.set(page.cluster, []);
    byCluster.get(page.cluster).push(page);
  }
  if (!byCluster.size) box.append(el("p", { class: "hint" }, "No recent pages in memory."));
  for (const [cluster, pages] of [...byCluster].sort((a, b) => b[1].length - a[1].length)) {
    const list = el("ul");
    for (const page of pages) {
      const link = el("a", { "data-page": page.id, title: page.url || page.id,
                             onclick: () => openPage(page.id) },
                      page.title || page.url || page.id);
      list.append(el("li", {}, link, page.error ? " ⚠" : ""));
    }
    box.append(el("div", { class: "cluster", "data-testid": "cluster" },
                  el("h3", {}, `${cluster} (${pages.length})`), list));
  }
}

function renderProfile(summary) {
  const box = $("profile");
  box.replaceChildren();
  if (!summary.templates) {
    box.append(el("p", { class: "hint" }, summary.error || "Not learned yet (needs a few pages)."));
    return;
  }
  box.append(el("p", {}, `Learned from ${summary.pages} page(s), ${summary.updated || ""}; `
    + `cluster sizes ${JSON.stringify((summary.info || {}).cluster_sizes || [])}.`));
  const table = el("table", {}, el("tr", {}, el("th", {}, "template"), el("th", {}, "pages"),
                                   el("th", {}, "shared subtrees (deleted)")));
  const containers = el("ul");
  for (const t of summary.templates) {
    table.append(el("tr", { "data-testid": "template" }, el("td", {}, t.cluster), el("td", {}, t.pages),
      el("td", {}, t.template_subtrees)));
    containers.append(el("li", {}, `${t.cluster}: `,
      t.container ? el("code", {}, t.container) : `depth ${t.container_depth} (no recent page shows it)`));
  }
  box.append(table, el("p", {}, "Content container (the extractor searches inside it):"), containers);
  if (summary.learning) {
    const l = summary.learning;
    box.append(el("p", { class: "hint" }, `Seen ${l.seen} page(s); last learned at ${l.learned_at}; `
      + `${l.unassigned} page(s) fitted no template since.`));
  }
}

async function openPage(id) {
  status(`opening ${id}…`);
  const page = await api(`/sites/${encodeURIComponent(current.site)}/page?id=${encodeURIComponent(id)}`);
  current.page = page;
  for (const a of document.querySelectorAll("#clusters a")) {
    a.classList.toggle("open", a.dataset.page === id);
  }
  renderRecord(page.record);
  const frame = $("view");
  frame.onload = () => { markBlocks(frame.contentDocument, page); status(`${id} open`); };
  frame.srcdoc = OFFLINE + page.html;
}

function renderRecord(record) {
  const box = $("record");
  box.replaceChildren();
  const table = el("table");
  for (const key of ["title", "published", "author", "page_type", "method", "cluster", "error", "url"]) {
    if (record[key] === undefined || record[key] === null) continue;
    table.append(el("tr", {}, el("td", { class: "k" }, key), el("td", { "data-field": key }, record[key])));
  }
  box.append(table, el("pre", { "data-field": "text" }, record.text || ""));
}

function markBlocks(doc, page) {
  if (!doc || !doc.body) return;
  doc.head.append(Object.assign(doc.createElement("style"), { textContent: MARK_CSS }));
  const list = $("blocks");
  list.replaceChildren();
  const record = page.record || {};
  // The pipeline's blocks (sibling and visual methods, when this sitesift has them) and the
  // template method's decisions, each with its reason.
  const piped = Array.isArray(record.blocks) ? record.blocks : [];
  const template = page.template_blocks || [];
  let marked = markFromBlocks(doc, [...piped, ...template], list);
  if (!piped.length && !template.some((b) => b.label === "content")) {
    marked += markFromText(doc, record.text || "", list);
  }
  $("mode").textContent = `${piped.length} pipeline block(s), ${template.length} template decision(s)`
    + (Array.isArray(record.blocks) ? "" : "; this sitesift gives no record blocks");
  markContainer(doc, record.cluster);
  document.body.dataset.marked = String(marked);
}

function evaluate(doc, xpath) {
  try {
    return doc.evaluate(xpath, doc, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
  } catch (error) {
    return null;
  }
}

// Paths come from lxml's tree; the browser puts <tbody> into every table, lxml does not.
function findByXpath(doc, xpath) {
  if (!xpath) return null;
  return evaluate(doc, xpath) || evaluate(doc, xpath.replace(/(table(\[\d+\])?)\/tr/g, "$1/tbody/tr"));
}

function findByText(doc, text) {
  const want = norm(text);
  if (!want) return null;
  for (const node of doc.body.querySelectorAll(BLOCK_SELECTOR)) {
    if (norm(node.textContent) === want) return node;
  }
  return null;
}

function listItem(list, label, text, reason, node) {
  const item = el("li", { class: label === "content" ? "content" : "noise", "data-label": label },
                  el("b", {}, label), " ", el("span", { class: "reason" }, reason || ""),
                  el("div", {}, norm(text).slice(0, 120)));
  if (node) item.onclick = () => node.scrollIntoView({ block: "center" });
  list.append(item);
}

function markFromBlocks(doc, blocks, list) {
  let marked = 0;
  for (const block of blocks) {
    const label = block.label === "content" || block.label === "main" ? "content" : "noise";
    const node = findByXpath(doc, block.xpath) || findByText(doc, block.text);
    if (node && node.nodeType === 1) {
      node.dataset.sift = label;
      node.title = `${block.label}: ${block.reason || ""}`;
      marked += 1;
    }
    listItem(list, block.label, block.text, block.reason, node);
  }
  return marked;
}

function markFromText(doc, text, list) {
  const paragraphs = new Set(text.split(/\n\s*\n/).map(norm).filter(Boolean));
  const whole = norm(text);
  let marked = 0;
  for (const node of doc.body.querySelectorAll(BLOCK_SELECTOR)) {
    if (node.closest("[data-sift]")) continue;
    const own = norm(node.textContent);
    if (!own) continue;
    if (paragraphs.has(own) || (own.length >= 30 && whole.includes(own))) {
      node.dataset.sift = "content";
      node.title = "content: in the extracted text";
      marked += 1;
      listItem(list, "content", own, "in the extracted text", node);
    }
  }
  // Text without block elements of its own (old pages: <br> between paragraphs): mark the
  // text runs found in the record, long enough not to match by chance.
  const walker = doc.createTreeWalker(doc.body, NodeFilter.SHOW_TEXT);
  const runs = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const own = norm(node.data);
    const parent = node.parentElement;
    if (own.length < MIN_RUN || !parent || parent.closest("[data-sift],script,style,title")) continue;
    if (whole.includes(own)) runs.push(node);
  }
  for (const node of runs) {
    const span = doc.createElement("span");
    span.dataset.sift = "content";
    span.title = "content: in the extracted text";
    node.replaceWith(span);
    span.append(node);
    marked += 1;
  }
  if (runs.length) listItem(list, "content", `${runs.length} text run(s) outside blocks`, "in the extracted text", runs[0].parentElement);
  return marked;
}

function markContainer(doc, cluster) {
  const summary = current.summary;
  if (!summary || !summary.templates || !cluster) return;
  const template = summary.templates.find((t) => t.cluster === cluster);
  if (!template || !template.container) return;
  const node = findByXpath(doc, template.container);
  if (node && node.nodeType === 1) {
    node.dataset.siftContainer = template.cluster;
    node.title = (node.title ? node.title + "; " : "") + `content container of ${template.cluster}`;
  }
}

$("site").addEventListener("change", (event) => openSite(event.target.value).catch((e) => status(e.message)));
$("reload").addEventListener("click", () => loadSites().catch((e) => status(e.message)));
loadSites().catch((e) => status(e.message));
