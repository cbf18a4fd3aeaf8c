"use strict";
/* pdnkit game viewer. Every position comes from pdnkit (JSON in the page); this script only
   draws. Placement strings: one character per square, square 1 first (w W b B .). */
(function () {
  var META = JSON.parse(document.getElementById("pdnkit-index").textContent);
  var GAMES = META.games;
  var ROW = 26;
  var SVGNS = "http://www.w3.org/2000/svg";
  /* line: -1 the main line, v >= 0 variation v of the game (its plies count as in the game) */
  var state = { filtered: GAMES.slice(), game: -1, data: null, ply: 0, line: -1, finding: -1 };
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function sv(tag, attrs) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  /* ---------------- game list: filters and a virtual list ---------------- */
  function fillFilters() {
    var statuses = {}, codes = {};
    GAMES.forEach(function (g) {
      statuses[g.status] = (statuses[g.status] || 0) + 1;
      g.codes.forEach(function (c) { codes[c] = (codes[c] || 0) + 1; });
    });
    Object.keys(statuses).sort().forEach(function (s) {
      $("f-status").appendChild(el("option", { value: s }, s + " (" + statuses[s] + ")"));
    });
    Object.keys(codes).sort().forEach(function (c) {
      $("f-code").appendChild(el("option", { value: c }, c + " (" + codes[c] + ")"));
    });
  }
  function applyFilters() {
    var st = $("f-status").value, code = $("f-code").value;
    var text = $("f-text").value.trim().toLowerCase();
    state.filtered = GAMES.filter(function (g) {
      if (st && g.status !== st) return false;
      if (code && g.codes.indexOf(code) < 0) return false;
      if (text && (g.white + " " + g.black + " " + g.event + " " + g.source + " " + g.date)
        .toLowerCase().indexOf(text) < 0) return false;
      return true;
    });
    $("count").textContent = state.filtered.length + " of " + GAMES.length + " games";
    $("list-spacer").style.height = (state.filtered.length * ROW) + "px";
    $("list").scrollTop = 0;
    renderRows();
  }
  function renderRows() {
    var list = $("list");
    var first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    var last = Math.min(state.filtered.length, first + Math.ceil(list.clientHeight / ROW) + 10);
    Array.prototype.slice.call(list.querySelectorAll(".row")).forEach(function (r) { r.remove(); });
    for (var i = first; i < last; i++) {
      var g = state.filtered[i];
      var row = el("div", { "class": "row" + (g.i === state.game ? " sel" : ""), "data-game": g.i });
      row.style.top = (i * ROW) + "px";
      row.appendChild(el("span", {}, String(g.i)));
      row.appendChild(el("span", { title: g.source }, g.players));
      row.appendChild(el("span", { title: g.event }, g.event));
      row.appendChild(el("span", { title: g.resultText }, g.won));
      row.appendChild(el("span", { "class": "st-" + g.status }, g.status));
      row.appendChild(el("span", { title: g.codes.join(", ") }, g.findings ? String(g.findings) : ""));
      row.addEventListener("click", onRowClick);
      list.appendChild(row);
    }
  }
  function onRowClick(ev) { openGame(+ev.currentTarget.getAttribute("data-game"), null); }

  /* ---------------- one game ---------------- */
  function ply(k) { return state.data.plies[k - 1]; } /* [w, c, path, cap, nags, cm, pl, num, side, ok] */
  function lastPly() { return state.data.plies.length; }
  function placement(k) {
    for (var j = Math.min(k, lastPly()); j >= 1; j--) if (ply(j)[6]) return ply(j)[6];
    return state.data.start;
  }
  function variation(v) { return state.data.vars[v]; }
  function parentOf(v) { var p = variation(v).parent; return p === null ? -1 : p; }
  function lineLast(v) { return v < 0 ? lastPly() : variation(v).at + variation(v).plies.length - 1; }
  function plyOf(v, k) { return v < 0 ? ply(k) : variation(v).plies[k - variation(v).at]; }
  /* the placement after ply k of line v: its last replayed ply up to k, else its parent's */
  function placementOf(v, k) {
    while (v >= 0) {
      for (var j = Math.min(k, lineLast(v)); j >= variation(v).at; j--) {
        if (plyOf(v, j)[6]) return plyOf(v, j)[6];
      }
      k = variation(v).at - 1;
      v = parentOf(v);
    }
    return placement(k);
  }
  /* a finding is about the ply shown: same ply, same kind of line */
  function findingHere(f) { return f.ply === state.ply && !!f.inVar === (state.line >= 0); }
  function openGame(i, k) {
    var block = document.getElementById("pdnkit-g-" + i);
    if (!block) return;
    state.game = i;
    state.data = JSON.parse(block.textContent);
    state.finding = -1;
    state.line = -1;
    var d = state.data;
    $("g-title").textContent = d.title;
    $("g-source").textContent = d.source + " \u00b7 " + (d.variantTitle || "unknown variant") +
      " \u00b7 status " + d.status;
    renderMoves();
    renderFindings();
    var first = -1;
    d.findings.forEach(function (f) { if (first < 0 && f.sev === "error" && f.ply !== null) first = f.ply; });
    go(k !== null && k !== undefined ? k : 0);
    revealRow(i);
  }
  /* scroll the game list (only the list) so that game i's row is in view */
  function revealRow(i) {
    var list = $("list"), j = -1;
    state.filtered.forEach(function (g, n) { if (g.i === i) j = n; });
    if (j >= 0) {
      var top = j * ROW;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - ROW) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
    renderRows();
  }
  function nagText(n) {
    var sym = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };
    return sym[n] || ("$" + n);
  }
  /* the move list: the main line, and each variation on its own indented line after the
     move it replaces, in brackets (nested ones inside; walked with a stack: any depth) */
  function renderMoves() {
    var box = $("moves");
    box.textContent = "";
    var d = state.data, bad = {}, kids = {};
    var first = (META.layouts[d.variant] || {}).first || "W";
    d.findings.forEach(function (f) { if (f.sev === "error" && f.ply && !f.inVar) bad[f.ply] = true; });
    d.vars.forEach(function (x, i) {
      var key = (x.parent === null ? -1 : x.parent) + ":" + x.at;
      (kids[key] = kids[key] || []).push(i);
    });
    function block(depth) {
      var b = el("div", { "class": depth ? "var" : "line" });
      if (depth) b.style.marginLeft = (Math.min(depth, 8) * 1.2) + "em";
      box.appendChild(b);
      return b;
    }
    var cur = block(0), resume = false, stack = [{ v: -1, j: 0, open: false, prev: null }];
    while (stack.length) {
      var fr = stack[stack.length - 1];
      var line = fr.v < 0 ? d.plies : variation(fr.v).plies;
      var depth = fr.v < 0 ? 0 : variation(fr.v).depth;
      if (!fr.open || resume) {  /* a variation opens, or its parent goes on after it */
        if (fr.v >= 0 || fr.open) cur = block(depth);
        if (!fr.open && fr.v >= 0) cur.appendChild(el("span", { "class": "vb" }, "("));
        fr.open = true;
        fr.prev = null;
        resume = false;
      }
      if (fr.j >= line.length) {
        if (fr.v >= 0) {
          cur.appendChild(el("span", { "class": "vb" }, ")"));
          if (variation(fr.v).stop) cur.appendChild(el("span", { "class": "vstop" }, " not replayed: " + variation(fr.v).stop));
        }
        stack.pop();
        resume = true;
        continue;
      }
      var k = (fr.v < 0 ? 1 : variation(fr.v).at) + fr.j, p = line[fr.j];
      if (p[7] && p[7] !== fr.prev) {
        cur.appendChild(el("span", { "class": "num" }, p[7] + (p[8] === first ? "." : "...")));
      }
      fr.prev = p[7];
      moveSpan(cur, p, k, fr.v, fr.v < 0 && bad[k]);
      fr.j++;
      var ch = kids[fr.v + ":" + k] || [];
      for (var c = ch.length - 1; c >= 0; c--) stack.push({ v: ch[c], j: 0, open: false, prev: null });
    }
    if (!lastPly()) box.textContent = "(no moves)";
  }
  function moveSpan(box, p, k, v, bad) {
    var m = el("span", { "class": "mv" + (bad ? " bad" : "") + (p[9] ? "" : " unplayed") + (v >= 0 ? " in-var" : ""),
      "data-ply": k, "data-line": v, title: p[1] ? "played as " + p[1] : "" }, p[0]);
    m.addEventListener("click", function () { go(k, false, v); });
    box.appendChild(m);
    p[4].forEach(function (n) { box.appendChild(el("span", { "class": "nag" }, nagText(n))); });
    if (p[5]) box.appendChild(el("span", { "class": "cm" }, " {" + p[5] + "} "));
    box.appendChild(document.createTextNode(" "));
  }
  function renderFindings() {
    var box = $("findings");
    box.textContent = "";
    state.data.findings.forEach(function (f, idx) {
      var div = el("div", { "class": "fd " + f.sev, "data-finding": idx, "data-ply": f.ply === null ? "" : f.ply });
      div.appendChild(el("code", {}, f.code));
      div.appendChild(document.createTextNode(
        (f.ply !== null ? " \u00b7 ply " + f.ply : "") + (f.move ? " \u00b7 " + f.move : "") + ": " + f.msg));
      div.addEventListener("click", function () { selectFinding(idx); });
      box.appendChild(div);
    });
    if (!state.data.findings.length) box.textContent = "No findings: pdnkit found nothing wrong.";
  }
  function selectFinding(idx) {
    var f = state.data.findings[idx], line = -1;
    state.finding = idx;
    if (f.inVar && f.ply !== null) {  /* the variation whose move at that ply is the one found */
      state.data.vars.forEach(function (x, v) {
        if (line < 0 && f.ply >= x.at && f.ply <= lineLast(v) && plyOf(v, f.ply)[0] === f.move) line = v;
      });
    }
    go(f.ply !== null ? f.ply : lastPly(), true, line);
  }

  /* ---------------- drawing ---------------- */
  function drawBoard() {
    var d = state.data, lay = META.layouts[d.variant];
    var wrap = $("board-wrap");
    wrap.textContent = "";
    if (!lay) { wrap.textContent = "(no board: the variant is unknown)"; return; }
    var C = 40, W = lay.w, H = lay.h;
    var svg = sv("svg", { id: "board", viewBox: "0 0 " + (W * C) + " " + (H * C),
      "data-variant": d.variant, "data-ply": state.ply, "data-line": state.line, role: "img" });
    svg.appendChild(sv("rect", { width: W * C, height: H * C, fill: "#f0d9b5" }));
    var marks = {}, f = state.finding >= 0 ? d.findings[state.finding] : null;
    var fHere = f && findingHere(f);
    // an error shows the board before its move (also when the move stood and was replayed)
    var pl = (fHere && f.before) ? f.before : (placementOf(state.line, state.ply) || "");
    var p = state.ply >= 1 ? plyOf(state.line, state.ply) : null;
    if (p && p[9]) {
      p[2].forEach(function (s) { marks[s] = "path"; });
      p[3].forEach(function (s) { marks[s] = "captured"; });
    }
    if (fHere) f.sq.forEach(function (s) { marks[s] = "written"; });
    var fill = { path: "#d2be48", captured: "#c0504d", written: "#d9534f" };
    function xy(s) {
      var c = lay.coords[s - 1];
      return [c[0] * C + C / 2, (H - 1 - c[1]) * C + C / 2];
    }
    for (var s = 1; s <= lay.coords.length; s++) {
      var c = lay.coords[s - 1], x = c[0] * C, y = (H - 1 - c[1]) * C;
      var r = sv("rect", { x: x, y: y, width: C, height: C, fill: fill[marks[s]] || "#b58863",
        "data-square": s, "data-name": lay.names[s - 1] });
      if (marks[s]) r.setAttribute("data-mark", marks[s]);
      var t = sv("title", {}); t.textContent = lay.names[s - 1];
      r.appendChild(t);
      svg.appendChild(r);
    }
    for (s = 1; s <= pl.length; s++) {
      var ch = pl.charAt(s - 1);
      if (ch === ".") continue;
      var q = xy(s), white = ch === "w" || ch === "W";
      svg.appendChild(sv("circle", { cx: q[0], cy: q[1], r: C * 0.38, fill: white ? "#fbf7ee" : "#222",
        stroke: white ? "#333" : "#000", "stroke-width": 1.5, "data-square": s, "data-piece": ch,
        "class": "piece" }));
      if (ch === "W" || ch === "B") {
        svg.appendChild(sv("circle", { cx: q[0], cy: q[1], r: C * 0.2, fill: "none",
          stroke: "#c9a227", "stroke-width": 3, "class": "crown" }));
      }
    }
    for (s = 1; s <= lay.coords.length; s++) {  /* square names above the pieces */
      var c2 = lay.coords[s - 1];
      var num = sv("text", { x: c2[0] * C + 2, y: (H - 1 - c2[1]) * C + 9, "font-size": 8.5,
        fill: "#fff", stroke: "#5a3d22", "stroke-width": 2, "paint-order": "stroke",
        "font-family": "sans-serif", "class": "sqnum", "pointer-events": "none" });
      num.textContent = lay.names[s - 1];
      svg.appendChild(num);
    }
    var defs = sv("defs", {});
    [["ah-move", "#1f5fa8"], ["ah-cap", "#b3261e"], ["ah-legal", "#2e7d32"]].forEach(function (a) {
      var mk = sv("marker", { id: a[0], viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4,
        markerHeight: 4, orient: "auto-start-reverse" });
      mk.appendChild(sv("path", { d: "M0,0 L10,5 L0,10 z", fill: a[1] }));
      defs.appendChild(mk);
    });
    svg.appendChild(defs);
    function arrow(path, colour, head, cls, dash) {
      if (path.length < 2) return;
      var pts = path.map(function (s2) { return xy(s2).join(","); }).join(" ");
      var a = sv("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 5,
        "stroke-opacity": 0.8, "stroke-linejoin": "round", "marker-end": "url(#" + head + ")",
        "class": cls });
      if (dash) a.setAttribute("stroke-dasharray", "6 5");
      svg.appendChild(a);
    }
    if (p && p[9]) arrow(p[2], p[3].length ? "#b3261e" : "#1f5fa8", p[3].length ? "ah-cap" : "ah-move", "arrow move");
    if (fHere) {
      f.legalPaths.forEach(function (lp) { arrow(lp, "#2e7d32", "ah-legal", "arrow legal", true); });
    }
    wrap.appendChild(svg);
  }
  function renderInfo() {
    var d = state.data, k = state.ply, info = $("ply-info"), line = state.line;
    $("ply-label").textContent = k === 0 ? "start" : (line >= 0 ? "variation, " : "") + "ply " + k + " / " + lineLast(line);
    info.textContent = "";
    if (k >= 1) {
      var p = plyOf(line, k);
      var first = (META.layouts[d.variant] || {}).first || "W";
      info.appendChild(el("b", {}, (p[7] ? p[7] + (p[8] === first ? ". " : "... ") : "") + p[0]));
      if (p[1]) info.appendChild(document.createTextNode(" (played as " + p[1] + ")"));
      if (!p[9]) info.appendChild(el("span", { "class": "st-error" }, " not replayed"));
      p[4].forEach(function (n) { info.appendChild(el("span", { "class": "nag" }, " " + nagText(n) + " ($" + n + ")")); });
      if (p[5]) info.appendChild(el("div", { "class": "cm" }, p[5]));
      if (line >= 0) info.appendChild(el("div", { "class": "dim" }, "In a variation: Esc goes back to the line it leaves, Home and End to the main line."));
    } else {
      info.textContent = "start position";
    }
    Array.prototype.slice.call(document.querySelectorAll("#moves .mv")).forEach(function (m) {
      var cur = +m.getAttribute("data-ply") === k && +m.getAttribute("data-line") === line;
      m.classList.toggle("cur", cur);
      if (cur) {  /* scroll the move list only, never the page */
        var box = $("moves");
        var top = m.getBoundingClientRect().top - box.getBoundingClientRect().top + box.scrollTop;
        if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - m.offsetHeight) {
          box.scrollTop = top - box.clientHeight / 2;
        }
      }
    });
    Array.prototype.slice.call(document.querySelectorAll("#findings .fd")).forEach(function (fd) {
      fd.classList.toggle("sel", +fd.getAttribute("data-finding") === state.finding);
    });
    var legal = $("legal");
    legal.textContent = "";
    var f = state.finding >= 0 ? d.findings[state.finding] : null;
    if (f && findingHere(f) && f.sev === "error" && !f.inVar) {
      legal.appendChild(el("div", {}, "Move as written: " + (f.move || "?") + " (red squares). Legal moves here (green): "));
      f.legal.forEach(function (m) { legal.appendChild(el("span", { "class": "lm" }, m)); });
      if (!f.legal.length) legal.appendChild(el("span", {}, "none: the game was over."));
    }
    var v = $("verdict");
    v.className = k === lastPly() && line < 0 ? "final" : "";
    v.textContent = shownText(k, f) + " Result " + d.resultText + " \u00b7 pdnkit: " + d.verdict;
  }
  /* what the board shows at ply k (f: the finding selected): never "final" for a position
     before a move or one left behind by a ply that was not replayed */
  function shownText(k, f) {
    var line = state.line;
    if (k === 0) return "Start position.";
    var p = plyOf(line, k);
    if (f && findingHere(f) && f.before) {
      return "Position before ply " + k + " (" + (f.move || p[0]) + ", the move with the " +
        f.code + " finding, is not played on this board).";
    }
    var where = line < 0 ? "" : " of this variation (of ply " + variation(line).at + " of " +
      (parentOf(line) < 0 ? "the main line" : "another variation") + ")";
    if (!p[9]) {
      var j = k - 1, start = line < 0 ? 1 : variation(line).at;
      while (j >= start && !plyOf(line, j)[9]) j--;
      var why = line >= 0 && variation(line).stop ? ": " + variation(line).stop : "";
      return (j >= start ? "Position after ply " + j + where + ", the last ply replayed" :
        line < 0 ? "Start position (no ply was replayed)" : "Position before this variation") +
        "; ply " + k + " (" + p[0] + ") was not replayed" + why + ".";
    }
    if (line < 0 && k === lastPly()) return "Final position.";
    return "Position after ply " + k + where + ".";
  }
  /* ---------------- the engine's evaluation, ply by ply ---------------- */
  var EVAL_CLAMP = 5, MARK = { blunder: "#b3261e", "missed-shot": "#e07b00", mistake: "#d4a017" };
  function evalText(v) { return v === null || v === undefined ? "-" : (v > 0 ? "+" : "") + v.toFixed(2); }
  function drawGraph() {
    var box = $("eval-graph"), d = state.data;
    box.textContent = "";
    if (!d.evals || !d.evals.length) return;
    var W = 460, H = 96, P = 6, n = Math.max(lastPly(), d.evals.length - 1, 1);
    function x(k) { return P + k * (W - 2 * P) / n; }
    function y(v) { return H / 2 - Math.max(-EVAL_CLAMP, Math.min(EVAL_CLAMP, v)) / EVAL_CLAMP * (H / 2 - P); }
    var svg = sv("svg", { id: "eval", viewBox: "0 0 " + W + " " + H, role: "img",
      "data-points": d.evals.filter(function (v) { return v !== null; }).length });
    svg.appendChild(sv("rect", { width: W, height: H / 2, fill: "#fbf7ee" }));
    svg.appendChild(sv("rect", { y: H / 2, width: W, height: H / 2, fill: "#e9e2d6" }));
    var pts = [], runs = [[]];
    d.evals.forEach(function (v, k) {
      if (v === null) { if (runs[runs.length - 1].length) runs.push([]); return; }
      runs[runs.length - 1].push(x(k).toFixed(1) + "," + y(v).toFixed(1));
      pts.push(k);
    });
    runs.forEach(function (r) {
      if (r.length < 1) return;
      var first = r[0].split(",")[0], last = r[r.length - 1].split(",")[0];
      svg.appendChild(sv("polygon", { points: first + "," + H / 2 + " " + r.join(" ") + " " + last + "," + H / 2,
        fill: "#c9b79c", "fill-opacity": 0.45 }));
      svg.appendChild(sv("polyline", { points: r.join(" "), fill: "none", stroke: "#5a3d22",
        "stroke-width": 1.5, "class": "eval-line" }));
    });
    svg.appendChild(sv("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#999", "stroke-width": 0.5 }));
    d.findings.forEach(function (f) {
      var v = f.ply !== null ? d.evals[f.ply] : null;
      if (!MARK[f.code] || v === null || v === undefined) return;
      var c = sv("circle", { cx: x(f.ply), cy: y(v), r: 3.5, fill: MARK[f.code], "class": "mark " + f.code,
        "data-ply": f.ply });
      var t = sv("title", {}); t.textContent = "ply " + f.ply + ": " + f.code + " " + (f.move || "");
      c.appendChild(t);
      svg.appendChild(c);
    });
    svg.appendChild(sv("line", { x1: x(state.ply), x2: x(state.ply), y1: 0, y2: H, stroke: "#1f5fa8",
      "stroke-width": 1.5, "class": "eval-now", "data-ply": state.ply }));
    svg.addEventListener("click", function (ev) {
      var r = svg.getBoundingClientRect();
      var k = Math.round(((ev.clientX - r.left) / r.width * W - P) / (W - 2 * P) * n);
      go(Math.max(0, Math.min(lastPly(), k)), false, -1);
    });
    box.appendChild(svg);
    var here = state.line < 0 ? d.evals[state.ply] : null;
    box.appendChild(el("div", { "class": "cap", id: "eval-now" }, "evaluation (" + (d.evalBy || "engine") +
      ", men, White's view; above the line White stands better): " + evalText(here) +
      (state.line < 0 ? " at " + (state.ply ? "ply " + state.ply : "the start") : " (a variation)")));
  }
  /* show ply k of line (default: the line shown); before a variation's first move is its
     parent line's ply */
  function go(k, keepFinding, line) {
    if (!state.data) return;
    var v = line === undefined ? state.line : line;
    while (v >= 0 && k < variation(v).at) { k = variation(v).at - 1; v = parentOf(v); }
    state.line = v;
    state.ply = Math.max(0, Math.min(lineLast(v), k));
    if (!keepFinding && state.finding >= 0 && !findingHere(state.data.findings[state.finding])) state.finding = -1;
    drawBoard();
    drawGraph();
    renderInfo();
  }

  /* ---------------- wiring ---------------- */
  function step(n) { go(state.ply + n); }
  function nextGame(n) {
    if (!state.filtered.length) return;
    var at = -1;
    state.filtered.forEach(function (g, j) { if (g.i === state.game) at = j; });
    var j = Math.max(0, Math.min(state.filtered.length - 1, at + n));
    openGame(state.filtered[j].i, null);
  }
  function fromHash() {
    var m = /g=(\d+)(?:&ply=(\d+))?/.exec(location.hash || "");
    if (m && +m[1] >= 1 && +m[1] <= GAMES.length) {  /* games count from 1, as in the CLI */
      openGame(+m[1], m[2] !== undefined ? +m[2] : null);
      if (m[2] !== undefined) {  /* a link to a ply with an error (from a report): show it */
        state.data.findings.forEach(function (f, idx) {
          if (state.finding < 0 && f.sev === "error" && !f.inVar && f.ply === +m[2]) selectFinding(idx);
        });
      }
      return true;
    }
    return false;
  }
  fillFilters();
  ["f-status", "f-code"].forEach(function (id) { $(id).addEventListener("change", applyFilters); });
  $("f-text").addEventListener("input", applyFilters);
  $("list").addEventListener("scroll", renderRows);
  $("b-first").addEventListener("click", function () { go(0, false, -1); });
  $("b-prev").addEventListener("click", function () { step(-1); });
  $("b-next").addEventListener("click", function () { step(1); });
  $("b-last").addEventListener("click", function () { go(lastPly(), false, -1); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    var keys = { ArrowRight: function () { step(1); }, ArrowLeft: function () { step(-1); },
      Home: function () { go(0, false, -1); }, End: function () { go(lastPly(), false, -1); },
      Escape: function () { if (state.line >= 0) go(variation(state.line).at - 1, false, parentOf(state.line)); },
      ArrowDown: function () { nextGame(1); }, ArrowUp: function () { nextGame(-1); } };
    if (keys[ev.key]) { keys[ev.key](); ev.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  applyFilters();
  if (!fromHash() && GAMES.length) openGame(GAMES[0].i, null);
  window.pdnkitViewer = { state: state, open: openGame, go: go, selectFinding: selectFinding };
})();
