"use strict";
/* pdnkit explorer. Every number comes from the server's JSON API (the rows the pdnkit commands
   write) and every position from its rules engine: this script only asks and draws. Text from
   the database is only ever set as text (textContent), never as markup. The state of the page
   lives in the address's #fragment, so a position can be bookmarked and Back goes back. */
(function () {
  const SVGNS = "http://www.w3.org/2000/svg";
  const PAGE = 50;
  const $ = (id) => document.getElementById(id);
  const state = {
    info: null, tab: "explorer", variant: "", fen: "", moves: [], status: "", offset: 0,
    filters: { player: "", event: "", from: "", to: "", all_copies: "" },
    node: null, pick: null, tool: "w", editor: {},
    kind: "players", by: "", all: false,
  };
  const seq = { explorer: 0, search: 0, stats: 0, game: 0 };

  /* ---------------- small helpers ---------------- */
  /* text from the database as the page shows it: without the bidi controls that would
     reorder the page's own text around it (as the view page shows it) */
  const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
  function plain(text) { return String(text).replace(BIDI, ""); }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, plain(attrs[k]));
    if (text !== undefined && text !== null) e.textContent = plain(text);
    return e;
  }
  function sv(tag, attrs) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function setStatus(text, error) {
    const s = $("status");
    s.textContent = text || "";
    s.className = error ? "error" : "";
  }
  function layout() { return state.info.variants.find((v) => v.variant === state.variant).layout; }
  function firstMover() { return layout().first || "W"; }
  function sideName(s) { return s === "B" ? "Black" : "White"; }
  function filterParams() {
    const f = state.filters, out = {};
    ["player", "event", "from", "to", "all_copies"].forEach((k) => { if (f[k]) out[k] = f[k]; });
    return out;
  }
  /* ask the API: the JSON, and the total of a paged list; a refusal throws its message */
  async function api(path, params) {
    const q = new URLSearchParams();
    for (const k in params) if (params[k] !== "" && params[k] !== null && params[k] !== undefined) q.set(k, params[k]);
    const r = await fetch(path + "?" + q.toString(), { headers: { Accept: "application/json" } });
    const body = await r.json();
    if (!r.ok) throw new Error(body.error || ("HTTP " + r.status));
    return { body: body, total: +(r.headers.get("X-Total-Count") || 0) };
  }
  const BY_RESULT = { "1-0": "white", "0-1": "black", "1/2-1/2": "draw" };
  function outcomeText(row) {
    const o = row.outcome || BY_RESULT[row.result];  /* a normalised result is White's first */
    const who = o === "white" ? "White won" : o === "black" ? "Black won" : o === "draw" ? "draw" : "no result";
    return who;
  }
  function cell(tr, text, cls, title) {
    const td = el("td", cls ? { "class": cls } : {}, text === null || text === undefined ? "" : text);
    if (title) td.title = plain(title);
    tr.appendChild(td);
    return td;
  }
  function emptyRow(tbody, columns, text) {
    const tr = el("tr", { "class": "empty" });
    const td = el("td", { colspan: columns }, text);
    tr.appendChild(td);
    tbody.appendChild(tr);
  }

  /* ---------------- the address: #tab=...&variant=...&moves=... ---------------- */
  function readHash() {
    const h = new URLSearchParams(location.hash.replace(/^#/, ""));
    state.tab = ["explorer", "search", "stats"].indexOf(h.get("tab")) >= 0 ? h.get("tab") : "explorer";
    const v = h.get("variant");
    const known = state.info.variants.map((x) => x.variant);
    state.variant = known.indexOf(v) >= 0 ? v : (known[0] || "");
    state.fen = h.get("fen") || "";  /* a set-up position to explore from ("": the start) */
    state.moves = (h.get("moves") || "").split(" ").filter((m) => m);
    ["player", "event", "from", "to"].forEach((k) => { state.filters[k] = h.get(k) || ""; });
    state.filters.all_copies = h.get("all_copies") === "1" ? "1" : "";  /* every record, copies too */
    state.status = h.get("status") || "";
    state.offset = Math.max(0, +(h.get("offset") || 0) || 0);
    state.kind = h.get("kind") || "players";
    state.by = h.get("by") || "";
    state.all = h.get("all") === "1";
  }
  function go(change) {
    const next = Object.assign({
      tab: state.tab, variant: state.variant, fen: state.fen, moves: state.moves.join(" "), status: state.status,
      offset: state.offset, kind: state.kind, by: state.by, all: state.all ? "1" : "",
    }, state.filters, change || {});
    if (Array.isArray(next.moves)) next.moves = next.moves.join(" ");
    const h = new URLSearchParams();
    for (const k in next) if (next[k] !== "" && next[k] !== 0 && next[k] !== null) h.set(k, next[k]);
    const text = "#" + h.toString();
    if (text === location.hash) apply(); else location.hash = text;
  }
  function apply() {
    readHash();
    $("f-variant").value = state.variant;
    ["player", "event", "from", "to"].forEach((k) => { $("f-" + k).value = state.filters[k]; });
    $("f-copies").checked = state.filters.all_copies === "1";
    $("gl-status").value = state.status;
    document.querySelectorAll(".tab").forEach((b) => b.setAttribute("aria-selected", String(b.getAttribute("data-tab") === state.tab)));
    ["explorer", "search", "stats"].forEach((t) => { $("tab-" + t).hidden = t !== state.tab; });
    if (state.tab === "explorer") renderExplorer();
    else if (state.tab === "search") renderSearchBoard();
    else renderStats();
  }

  /* ---------------- the board ---------------- */
  const C = 40;
  function xy(lay, s) {
    const c = lay.coords[s - 1];
    return [c[0] * C + C / 2, (lay.h - 1 - c[1]) * C + C / 2];
  }
  function piece(svg, lay, s, ch, extra) {
    const q = xy(lay, s), white = ch === "w" || ch === "W";
    const any = ch === "*w" || ch === "*b", empty = ch === "e";
    if (empty) {
      svg.appendChild(sv("circle", { cx: q[0], cy: q[1], r: C * 0.16, fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-dasharray": "3 3", "data-square": s, "data-piece": "e", "class": "piece", "pointer-events": "none" }));
      return;
    }
    const colour = (any ? ch.charAt(1) === "w" : white) ? "#fbf7ee" : "#222";
    svg.appendChild(sv("circle", Object.assign({ cx: q[0], cy: q[1], r: C * 0.38, fill: colour, stroke: colour === "#222" ? "#000" : "#333", "stroke-width": 1.5, "data-square": s, "data-piece": ch, "class": "piece", "pointer-events": "none" }, extra || {})));
    if (ch === "W" || ch === "B") svg.appendChild(sv("circle", { cx: q[0], cy: q[1], r: C * 0.2, fill: "none", stroke: "#c9a227", "stroke-width": 3, "class": "crown", "pointer-events": "none" }));
    if (any) {
      const t = sv("text", { x: q[0], y: q[1] + 6, "text-anchor": "middle", "font-size": 18, fill: colour === "#222" ? "#fff" : "#222", "font-family": "sans-serif", "pointer-events": "none" });
      t.textContent = "*";
      svg.appendChild(t);
    }
  }
  function arrow(svg, lay, path, colour, cls) {
    if (!path || path.length < 2) return;
    svg.appendChild(sv("polyline", { points: path.map((s) => xy(lay, s).join(",")).join(" "), fill: "none", stroke: colour, "stroke-width": 5, "stroke-opacity": 0.8, "stroke-linejoin": "round", "marker-end": "url(#ah-" + cls + ")", "class": "arrow " + cls, "pointer-events": "none" }));
  }
  /* draw `pieces` ({square: w W b B *w *b e}) on the variant's board; marks: {square: colour} */
  function drawBoard(box, lay, pieces, opts) {
    box.textContent = "";
    const svg = sv("svg", { viewBox: "0 0 " + lay.w * C + " " + lay.h * C, role: "img", "data-variant": state.variant });
    svg.appendChild(sv("rect", { width: lay.w * C, height: lay.h * C, fill: "#f0d9b5" }));
    const marks = opts.marks || {};
    for (let s = 1; s <= lay.coords.length; s++) {
      const c = lay.coords[s - 1];
      const r = sv("rect", { x: c[0] * C, y: (lay.h - 1 - c[1]) * C, width: C, height: C, fill: marks[s] || "#b58863", "data-square": s, "data-name": lay.names[s - 1] });
      if (marks[s]) r.setAttribute("data-mark", "1");
      const t = sv("title", {}); t.textContent = lay.names[s - 1];
      r.appendChild(t);
      if (opts.click) r.addEventListener("click", () => opts.click(s));
      svg.appendChild(r);
    }
    for (const s in pieces) piece(svg, lay, +s, pieces[s]);
    for (let s = 1; s <= lay.coords.length; s++) {
      const c = lay.coords[s - 1];
      const n = sv("text", { x: c[0] * C + 2, y: (lay.h - 1 - c[1]) * C + 9, "font-size": 8.5, fill: "#fff", stroke: "#5a3d22", "stroke-width": 2, "paint-order": "stroke", "font-family": "sans-serif", "pointer-events": "none" });
      n.textContent = lay.names[s - 1];
      svg.appendChild(n);
    }
    const defs = sv("defs", {});
    [["move", "#1f5fa8"], ["hover", "#2e7d32"]].forEach((a) => {
      const mk = sv("marker", { id: "ah-" + a[0], viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
      mk.appendChild(sv("path", { d: "M0,0 L10,5 L0,10 z", fill: a[1] }));
      defs.appendChild(mk);
    });
    svg.appendChild(defs);
    (opts.arrows || []).forEach((a) => arrow(svg, lay, a[0], a[1], a[2]));
    box.appendChild(svg);
    return svg;
  }
  function placementPieces(placement) {
    const out = {};
    for (let i = 0; i < placement.length; i++) if (placement.charAt(i) !== ".") out[i + 1] = placement.charAt(i);
    return out;
  }

  /* ---------------- the explorer ---------------- */
  async function renderExplorer() {
    const my = ++seq.explorer;
    const moves = state.moves.join(" ");
    const base = Object.assign({ variant: state.variant }, filterParams());
    if (moves) base.moves = moves;
    setStatus("reading ...");
    try {
      const nodeAsk = api("/api/node", { variant: state.variant, fen: state.fen, moves: moves });
      if (state.fen) {  /* from a set-up position: the tree and games of the node by its FEN */
        const n = await nodeAsk;
        delete base.moves;
        base.fen = n.body.fen;
      }
      const res = await Promise.all([
        nodeAsk,
        api("/api/tree", base),
        api("/api/games", Object.assign({ status: state.status, limit: PAGE, offset: state.offset }, base)),
      ]);
      if (my !== seq.explorer) return;
      state.node = res[0].body;
      state.pick = null;
      drawNode();
      drawTree(res[1].body);
      drawGames(res[2].body, res[2].total);
      setStatus("");
    } catch (e) {
      if (my === seq.explorer) setStatus(e.message, true);
    }
  }
  function drawNode(hoverPath) {
    const n = state.node, lay = layout(), marks = {}, arrows = [];
    if (n.last) arrows.push([n.last.path, "#1f5fa8", "move"]);
    if (hoverPath) arrows.push([hoverPath, "#2e7d32", "hover"]);
    if (state.pick) {
      marks[state.pick] = "#d2be48";
      n.legal.filter((m) => m.path[0] === state.pick).forEach((m) => { marks[m.path[m.path.length - 1]] = "#8fbc6a"; });
    }
    const svg = drawBoard($("ex-board"), lay, placementPieces(n.placement), { marks: marks, arrows: arrows, click: boardClick });
    svg.id = "board";
    svg.setAttribute("data-fen", n.fen);
    $("ex-fen").textContent = n.fen;
    $("ex-opening").textContent = n.opening ? plain(n.opening) : (state.moves.length ? "" : state.fen ? "set-up position" : "initial position");
    $("ex-initial").hidden = !state.fen;
    drawPath();
    $("ex-back").disabled = !state.moves.length;
    $("ex-start").disabled = !state.moves.length;
  }
  function drawPath() {
    const box = $("ex-path");
    box.textContent = "";
    const start = el("span", { "class": "step" + (state.moves.length ? "" : " cur"), "data-ply": 0 }, state.fen ? "set-up position" : "start");
    start.addEventListener("click", () => play(0));
    box.appendChild(start);
    state.moves.forEach((m, i) => {
      if (i % 2 === 0 && !state.fen) box.appendChild(el("span", { "class": "num" }, (i / 2 + 1) + "."));
      const s = el("span", { "class": "step" + (i === state.moves.length - 1 ? " cur" : ""), "data-ply": i + 1 }, m);
      s.addEventListener("click", () => play(i + 1));
      box.appendChild(s);
    });
    box.appendChild(el("span", { "class": "dim" }, " \u00b7 " + sideName(state.node.side) + " to move"));
  }
  /* go to the node after the first k moves of the path */
  function play(k) { go({ moves: state.moves.slice(0, k), offset: 0 }); }
  function playMove(move) { go({ moves: state.moves.concat([move]), offset: 0 }); }
  function boardClick(s) {
    const n = state.node;
    $("ex-choice").textContent = "";
    if (state.pick) {
      const to = n.legal.filter((m) => m.path[0] === state.pick && m.path[m.path.length - 1] === s);
      if (to.length === 1) { playMove(to[0].move); return; }
      if (to.length > 1) {  /* captures with the same ends: say which */
        $("ex-choice").appendChild(el("span", { "class": "dim" }, "which capture? "));
        to.forEach((m) => {
          const b = el("button", { type: "button" }, m.move);
          b.addEventListener("click", () => playMove(m.move));
          $("ex-choice").appendChild(b);
        });
        return;
      }
    }
    state.pick = n.legal.some((m) => m.path[0] === s) ? s : null;
    drawNode();
  }
  function drawTree(rows) {
    const tb = $("ex-tree").querySelector("tbody");
    tb.textContent = "";
    const first = firstMover(), cols = first === "B" ? ["black_wins", "white_wins"] : ["white_wins", "black_wins"];
    $("ex-h1").textContent = first === "B" ? "Black wins" : "White wins";
    $("ex-h2").textContent = first === "B" ? "White wins" : "Black wins";
    let total = 0;
    rows.forEach((r) => {
      total += r.games;
      const tr = el("tr", { "data-move": r.move });
      cell(tr, r.move, "move");
      cell(tr, r.opening || "", "c-opening", r.opening || "");
      cell(tr, r.games, "num c-games");
      cell(tr, r.share, "num c-share");
      const bar = el("div", { "class": "bar", title: r.white_wins + " White wins, " + r.draws + " draws, " + r.black_wins + " Black wins, " + r.unknown + " without a result" });
      const known = r.white_wins + r.draws + r.black_wins;
      [["w", r.white_wins], ["d", r.draws], ["b", r.black_wins]].forEach((p) => {
        const sp = el("span", { "class": p[0] });
        sp.style.width = (known ? 100 * p[1] / known : 0) + "%";
        bar.appendChild(sp);
      });
      const td = el("td"); td.appendChild(bar); tr.appendChild(td);
      cell(tr, r[cols[0]], "num c-" + cols[0]);
      cell(tr, r.draws, "num c-draws");
      cell(tr, r[cols[1]], "num c-" + cols[1]);
      cell(tr, r.score === null ? "" : r.score + "%", "num c-score", sideName(r.side) + "'s score");
      cell(tr, r.transpositions, "num c-transpositions");
      tr.addEventListener("click", () => playMove(r.move));
      tr.addEventListener("mouseenter", () => {
        const m = state.node.legal.find((x) => x.move === r.move);
        if (m) drawNode(m.path);
      });
      tr.addEventListener("mouseleave", () => drawNode());
      tb.appendChild(tr);
    });
    if (!rows.length) emptyRow(tb, 10, "No game of these filters went on from this position.");
    $("ex-tree-count").textContent = rows.length ? "(" + total + " games went on)" : "";
  }
  function drawGames(rows, total) {
    const tb = $("gl-table").querySelector("tbody");
    tb.textContent = "";
    rows.forEach((r) => {
      const tr = el("tr", { "data-game": r.game_id });
      cell(tr, r.game_id, "num");
      cell(tr, r.white, "", r.white);
      cell(tr, r.black, "", r.black);
      cell(tr, r.event, "", r.event);
      cell(tr, r.date);
      cell(tr, outcomeText(r), "", (r.result || "*") + " (" + outcomeText(r) + ")");
      cell(tr, r.status, "st-" + r.status);
      cell(tr, r.findings || "", "num");
      cell(tr, r.plies, "num");
      cell(tr, r.ply, "num");
      tr.addEventListener("click", () => openGame(r.game_id, r.ply || 0, r.white, r.black));
      tb.appendChild(tr);
    });
    if (!rows.length) emptyRow(tb, 10, "No game.");
    $("gl-count").textContent = "(" + total + ")";
    $("gl-page").textContent = rows.length ? (state.offset + 1) + "-" + (state.offset + rows.length) + " of " + total : "";
    $("gl-prev").disabled = state.offset <= 0;
    $("gl-next").disabled = state.offset + rows.length >= total;
    $("gl-title").textContent = state.moves.length || state.fen ? "Games that reached this position" : "Games";
  }

  /* ---------------- one game: the view page (its evaluation graph included) ---------------- */
  function openGame(id, ply, white, black) {
    seq.game++;
    $("game-pane").hidden = false;
    $("gp-title").textContent = plain("game " + id + (white || black ? ": " + (white || "?") + " - " + (black || "?") : ""));
    $("gp-alone").href = "/view/" + id + "#g=1&ply=" + ply;
    $("gp-frame").src = "/view/" + id + "?embed=1#g=1&ply=" + ply;
    $("gp-frame").setAttribute("data-game", id);
  }
  function closeGame() {
    $("game-pane").hidden = true;
    $("gp-frame").removeAttribute("src");
    seq.game++;
  }

  /* ---------------- search on a board ---------------- */
  const TOOLS = [["w", "White man"], ["W", "White king"], ["*w", "White man or king"], ["b", "Black man"], ["B", "Black king"], ["*b", "Black man or king"], ["e", "empty square"]];
  function buildPalette() {
    const box = $("se-palette");
    TOOLS.forEach((t) => {
      const b = el("button", { type: "button", role: "radio", "data-tool": t[0], "aria-checked": String(t[0] === state.tool) });
      const s = sv("svg", { viewBox: "0 0 40 40" });
      s.appendChild(sv("rect", { width: 40, height: 40, fill: "#b58863" }));
      const lay = { coords: [[0, 0]], h: 1 };
      piece(s, lay, 1, t[0]);
      b.appendChild(s);
      b.appendChild(document.createTextNode(t[1]));
      b.addEventListener("click", () => {
        state.tool = t[0];
        box.querySelectorAll("button").forEach((x) => x.setAttribute("aria-checked", String(x === b)));
      });
      box.appendChild(b);
    });
  }
  function renderSearchBoard() {
    const svg = drawBoard($("se-board"), layout(), state.editor, { click: editSquare });
    svg.id = "search-board";
  }
  function editSquare(s) {
    if (state.editor[s] === state.tool) delete state.editor[s]; else state.editor[s] = state.tool;
    writeSearchFields();
    renderSearchBoard();
  }
  function writeSearchFields() {
    const names = layout().names, w = [], b = [], e = [], fw = [], fb = [];
    Object.keys(state.editor).map(Number).sort((p, q) => p - q).forEach((s) => {
      const t = state.editor[s], n = names[s - 1];
      if (t === "w") { w.push(n); fw.push(n); } else if (t === "W") { w.push("K" + n); fw.push("K" + n); }
      else if (t === "*w") w.push("*" + n);
      else if (t === "b") { b.push(n); fb.push(n); } else if (t === "B") { b.push("K" + n); fb.push("K" + n); }
      else if (t === "*b") b.push("*" + n);
      else e.push(n);
    });
    const fields = [];
    if (w.length) fields.push("W" + w.join(","));
    if (b.length) fields.push("B" + b.join(","));
    if (e.length) fields.push("E" + e.join(","));
    $("se-pattern").value = fields.join(":");
    const side = $("se-side").value === "black" ? "B" : "W";
    $("se-fen").value = fw.length || fb.length ? side + ":W" + fw.join(",") + ":B" + fb.join(",") : "";
  }
  function loadExplorerPosition() {
    if (!state.node) return;
    state.editor = placementPieces(state.node.placement);
    $("se-side").value = state.node.side === "B" ? "black" : "white";
    document.querySelector("input[name=se-mode][value=fen]").checked = true;
    writeSearchFields();
    renderSearchBoard();
  }
  async function runSearch() {
    const my = ++seq.search;
    const mode = document.querySelector("input[name=se-mode]:checked").value;
    const p = Object.assign({ variant: state.variant, side: $("se-side").value, limit: $("se-limit").value,
      mirror: $("se-mirror").checked ? 1 : "", first: $("se-first").checked ? 1 : "" }, filterParams());
    if (mode === "fen") p.fen = $("se-fen").value.trim();
    else { p.pattern = $("se-pattern").value.trim(); p.material = $("se-material").value.trim(); }
    if (!p.fen && !p.pattern && !p.material) {
      setStatus(mode === "fen" ? "Set up a position first (or load the explorer's)." : "Set up a pattern first: choose a piece, click squares.", true);
      return;
    }
    setStatus("searching ...");
    try {
      const rows = (await api("/api/search", p)).body;
      if (my !== seq.search) return;
      drawHits(rows);
      setStatus("");
    } catch (e) {
      if (my === seq.search) setStatus(e.message, true);
    }
  }
  function drawHits(rows) {
    const tb = $("se-table").querySelector("tbody");
    tb.textContent = "";
    const gamesHit = {};
    rows.forEach((r) => {
      gamesHit[r.game_id] = true;
      const tr = el("tr", { "data-game": r.game_id, "data-ply": r.ply });
      cell(tr, r.game_id, "num");
      cell(tr, r.ply, "num");
      cell(tr, sideName(r.side));
      cell(tr, r.white, "", r.white);
      cell(tr, r.black, "", r.black);
      cell(tr, r.event, "", r.event);
      cell(tr, r.date);
      cell(tr, outcomeText(r), "", (r.result || "*") + " (" + outcomeText(r) + ")");
      cell(tr, r.move);
      tr.addEventListener("click", () => openGame(r.game_id, r.ply, r.white, r.black));
      tb.appendChild(tr);
    });
    if (!rows.length) emptyRow(tb, 9, "No hit.");
    $("se-count").textContent = "(" + rows.length + " in " + Object.keys(gamesHit).length + " games)";
  }

  /* ---------------- statistics ---------------- */
  const BY = { openings: ["code", "name", "moves", "position"], results: ["variant", "event", "year"], findings: ["code", "file", "event", "game"] };
  function fillKinds() {
    const k = $("st-kind");
    state.info.stats.forEach((s) => k.appendChild(el("option", { value: s }, s)));
  }
  async function renderStats() {
    const my = ++seq.stats;
    $("st-kind").value = state.kind;
    const by = $("st-by");
    by.textContent = "";
    (BY[state.kind] || []).forEach((b) => by.appendChild(el("option", { value: b }, b)));
    by.disabled = !(BY[state.kind] || []).length;
    if (state.by && (BY[state.kind] || []).indexOf(state.by) >= 0) by.value = state.by;
    $("st-all").checked = state.all;
    const p = Object.assign({ kind: state.kind, variant: state.all ? "" : state.variant }, filterParams());
    if (!by.disabled) p.by = by.value;
    $("st-note").textContent = state.kind === "crosstable" && !state.filters.event ? "a crosstable needs an event: fill in the Event filter" : "";
    if (state.kind === "crosstable" && !state.filters.event) { drawTable([]); return; }
    setStatus("reading ...");
    try {
      const rows = (await api("/api/stats", p)).body;
      if (my !== seq.stats) return;
      drawTable(rows);
      setStatus("");
    } catch (e) {
      if (my === seq.stats) setStatus(e.message, true);
    }
  }
  function drawTable(rows) {
    const t = $("st-table"), head = t.querySelector("thead"), tb = t.querySelector("tbody");
    head.textContent = ""; tb.textContent = "";
    const cols = rows.length ? Object.keys(rows[0]) : [];
    const numeric = cols.map((c) => rows.every((r) => r[c] === null || typeof r[c] === "number"));
    const tr = el("tr");
    cols.forEach((c, i) => tr.appendChild(el("th", numeric[i] ? { "class": "num" } : {}, c)));
    head.appendChild(tr);
    rows.forEach((r) => {
      const row = el("tr");
      cols.forEach((c, i) => {
        const v = r[c];
        const td = cell(row, v === null ? "" : typeof v === "object" ? JSON.stringify(v) : v, numeric[i] ? "num" : "", typeof v === "string" ? v : "");
        if ((c === "player" || c === "event") && typeof v === "string" && v) {  /* its games */
          td.classList.add("link");
          td.title = plain("the explorer for " + v + "'s games");
          td.addEventListener("click", () => { const f = { tab: "explorer", moves: [], offset: 0 }; f[c] = v; go(f); });
        }
      });
      tb.appendChild(row);
    });
    if (!rows.length) emptyRow(tb, Math.max(1, cols.length), "(no rows)");
  }

  /* ---------------- wiring ---------------- */
  function wire() {
    document.querySelectorAll(".tab").forEach((b) => b.addEventListener("click", () => go({ tab: b.getAttribute("data-tab") })));
    $("f-variant").addEventListener("change", () => { state.editor = {}; go({ variant: $("f-variant").value, fen: "", moves: [], offset: 0 }); });
    $("ex-initial").addEventListener("click", () => go({ fen: "", moves: [], offset: 0 }));
    $("se-explore").addEventListener("click", () => {
      const fen = $("se-fen").value.trim();
      if (!fen) { setStatus("Set up a position first (or load the explorer's).", true); return; }
      go({ tab: "explorer", fen: fen, moves: [], offset: 0 });
    });
    ["player", "event", "from", "to"].forEach((k) => $("f-" + k).addEventListener("change", () => {
      const c = { offset: 0 }; c[k] = $("f-" + k).value.trim(); go(c);
    }));
    $("f-copies").addEventListener("change", () => go({ all_copies: $("f-copies").checked ? "1" : "", offset: 0 }));
    $("f-clear").addEventListener("click", () => go({ player: "", event: "", from: "", to: "", all_copies: "", status: "", offset: 0 }));
    $("ex-start").addEventListener("click", () => play(0));
    $("ex-back").addEventListener("click", () => play(state.moves.length - 1));
    $("gl-status").addEventListener("change", () => go({ status: $("gl-status").value, offset: 0 }));
    $("gl-prev").addEventListener("click", () => go({ offset: Math.max(0, state.offset - PAGE) }));
    $("gl-next").addEventListener("click", () => go({ offset: state.offset + PAGE }));
    $("se-clear").addEventListener("click", () => { state.editor = {}; writeSearchFields(); renderSearchBoard(); });
    $("se-load").addEventListener("click", loadExplorerPosition);
    $("se-side").addEventListener("change", writeSearchFields);
    $("se-go").addEventListener("click", runSearch);
    ["se-pattern", "se-fen", "se-material"].forEach((id) => $(id).addEventListener("keydown", (ev) => { if (ev.key === "Enter") runSearch(); }));
    $("st-kind").addEventListener("change", () => go({ kind: $("st-kind").value, by: "" }));
    $("st-by").addEventListener("change", () => go({ by: $("st-by").value }));
    $("st-all").addEventListener("change", () => go({ all: $("st-all").checked ? "1" : "" }));
    $("gp-close").addEventListener("click", closeGame);
    document.addEventListener("keydown", (ev) => {
      if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
      if (ev.key === "Escape" && !$("game-pane").hidden) { closeGame(); ev.preventDefault(); }
      else if (state.tab === "explorer" && $("game-pane").hidden && state.moves.length) {
        if (ev.key === "ArrowLeft") { play(state.moves.length - 1); ev.preventDefault(); }
        else if (ev.key === "Home") { play(0); ev.preventDefault(); }
      }
    });
    window.addEventListener("hashchange", apply);
  }
  async function start() {
    try {
      state.info = (await api("/api/info", {})).body;
    } catch (e) {
      setStatus("cannot read the database: " + e.message, true);
      return;
    }
    $("db-name").textContent = plain(state.info.database + " \u00b7 " + state.info.games + " games");
    document.title = plain("pdnkit explorer: " + state.info.database);
    state.info.variants.forEach((v) => $("f-variant").appendChild(el("option", { value: v.variant }, v.title + " (" + v.games + ")")));
    state.info.statuses.forEach((s) => $("gl-status").appendChild(el("option", { value: s }, s)));
    if (!state.info.variants.length) { setStatus("The database holds no game yet (pdnkit import FILES --db ...).", true); return; }
    buildPalette();
    fillKinds();
    wire();
    apply();
  }
  window.pdnkitExplorer = { state: state, go: go, openGame: openGame };
  start();
})();
