"use strict";
/* pdnkit game viewer. Every position comes from pdnkit (JSON in the page); this script only
   draws. Placement strings: one character per square, square 1 first (w W b B .). */
(function () {
  var META = JSON.parse(document.getElementById("pdnkit-index").textContent);
  var GAMES = META.games;
  var ROW = 26;
  var SVGNS = "http://www.w3.org/2000/svg";
  var state = { filtered: GAMES.slice(), game: -1, data: null, ply: 0, finding: -1 };
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
  function openGame(i, k) {
    var block = document.getElementById("pdnkit-g-" + i);
    if (!block) return;
    state.game = i;
    state.data = JSON.parse(block.textContent);
    state.finding = -1;
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
  function renderMoves() {
    var box = $("moves");
    box.textContent = "";
    var d = state.data, bad = {};
    var first = (META.layouts[d.variant] || {}).first || "W";
    d.findings.forEach(function (f) { if (f.sev === "error" && f.ply) bad[f.ply] = true; });
    for (var k = 1; k <= lastPly(); k++) {
      var p = ply(k);
      if (p[7] && (k === 1 || ply(k - 1)[7] !== p[7])) {
        box.appendChild(el("span", { "class": "num" }, p[7] + (p[8] === first ? "." : "...")));
      }
      var m = el("span", { "class": "mv" + (bad[k] ? " bad" : "") + (p[9] ? "" : " unplayed"),
        "data-ply": k, title: p[1] ? "played as " + p[1] : "" }, p[0]);
      m.addEventListener("click", function (ev) { go(+ev.currentTarget.getAttribute("data-ply")); });
      box.appendChild(m);
      p[4].forEach(function (n) { box.appendChild(el("span", { "class": "nag" }, nagText(n))); });
      if (p[5]) box.appendChild(el("span", { "class": "cm" }, " {" + p[5] + "} "));
      box.appendChild(document.createTextNode(" "));
    }
    if (!lastPly()) box.textContent = "(no moves)";
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
    var f = state.data.findings[idx];
    state.finding = idx;
    go(f.ply !== null ? f.ply : lastPly(), true);
  }

  /* ---------------- drawing ---------------- */
  function drawBoard() {
    var d = state.data, lay = META.layouts[d.variant];
    var wrap = $("board-wrap");
    wrap.textContent = "";
    if (!lay) { wrap.textContent = "(no board: the variant is unknown)"; return; }
    var C = 40, W = lay.w, H = lay.h;
    var svg = sv("svg", { id: "board", viewBox: "0 0 " + (W * C) + " " + (H * C),
      "data-variant": d.variant, "data-ply": state.ply, role: "img" });
    svg.appendChild(sv("rect", { width: W * C, height: H * C, fill: "#f0d9b5" }));
    var marks = {}, f = state.finding >= 0 ? d.findings[state.finding] : null;
    // an error shows the board before its move (also when the move stood and was replayed)
    var pl = (f && f.ply === state.ply && f.before) ? f.before : (placement(state.ply) || "");
    var p = state.ply >= 1 ? ply(state.ply) : null;
    if (p && p[9]) {
      p[2].forEach(function (s) { marks[s] = "path"; });
      p[3].forEach(function (s) { marks[s] = "captured"; });
    }
    if (f && f.ply === state.ply) f.sq.forEach(function (s) { marks[s] = "written"; });
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
    if (f && f.ply === state.ply) {
      f.legalPaths.forEach(function (lp) { arrow(lp, "#2e7d32", "ah-legal", "arrow legal", true); });
    }
    wrap.appendChild(svg);
  }
  function renderInfo() {
    var d = state.data, k = state.ply, info = $("ply-info");
    $("ply-label").textContent = k === 0 ? "start" : "ply " + k + " / " + lastPly();
    info.textContent = "";
    if (k >= 1) {
      var p = ply(k);
      var first = (META.layouts[d.variant] || {}).first || "W";
      info.appendChild(el("b", {}, (p[7] ? p[7] + (p[8] === first ? ". " : "... ") : "") + p[0]));
      if (p[1]) info.appendChild(document.createTextNode(" (played as " + p[1] + ")"));
      if (!p[9]) info.appendChild(el("span", { "class": "st-error" }, " not replayed"));
      p[4].forEach(function (n) { info.appendChild(el("span", { "class": "nag" }, " " + nagText(n) + " ($" + n + ")")); });
      if (p[5]) info.appendChild(el("div", { "class": "cm" }, p[5]));
    } else {
      info.textContent = "start position";
    }
    Array.prototype.slice.call(document.querySelectorAll("#moves .mv")).forEach(function (m) {
      var cur = +m.getAttribute("data-ply") === k;
      m.classList.toggle("cur", cur);
      if (cur) {  /* scroll the move list only, never the page */
        var box = $("moves"), top = m.offsetTop - box.offsetTop;
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
    if (f && f.ply === k && f.sev === "error") {
      legal.appendChild(el("div", {}, "Move as written: " + (f.move || "?") + " (red squares). Legal moves here (green): "));
      f.legal.forEach(function (m) { legal.appendChild(el("span", { "class": "lm" }, m)); });
      if (!f.legal.length) legal.appendChild(el("span", {}, "none: the game was over."));
    }
    var v = $("verdict");
    v.className = k === lastPly() ? "final" : "";
    v.textContent = shownText(k, f) + " Result " + d.resultText + " \u00b7 pdnkit: " + d.verdict;
  }
  /* what the board shows at ply k (f: the finding selected): never "final" for a position
     before a move or one left behind by a ply that was not replayed */
  function shownText(k, f) {
    if (k === 0) return "Start position.";
    var p = ply(k);
    if (f && f.ply === k && f.before) {
      return "Position before ply " + k + " (" + (f.move || p[0]) + ", the move with the " +
        f.code + " finding, is not played on this board).";
    }
    if (!p[9]) {
      var j = k - 1;
      while (j >= 1 && !ply(j)[9]) j--;
      return (j >= 1 ? "Position after ply " + j + ", the last ply replayed" :
        "Start position (no ply was replayed)") + "; ply " + k + " (" + p[0] + ") was not replayed.";
    }
    return k === lastPly() ? "Final position." : "Position after ply " + k + ".";
  }
  function go(k, keepFinding) {
    if (!state.data) return;
    state.ply = Math.max(0, Math.min(lastPly(), k));
    if (!keepFinding && state.finding >= 0 && state.data.findings[state.finding].ply !== state.ply) state.finding = -1;
    drawBoard();
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
          if (state.finding < 0 && f.sev === "error" && f.ply === +m[2]) selectFinding(idx);
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
  $("b-first").addEventListener("click", function () { go(0); });
  $("b-prev").addEventListener("click", function () { step(-1); });
  $("b-next").addEventListener("click", function () { step(1); });
  $("b-last").addEventListener("click", function () { go(lastPly()); });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && /INPUT|SELECT|TEXTAREA/.test(ev.target.tagName)) return;
    var keys = { ArrowRight: function () { step(1); }, ArrowLeft: function () { step(-1); },
      Home: function () { go(0); }, End: function () { go(lastPly()); },
      ArrowDown: function () { nextGame(1); }, ArrowUp: function () { nextGame(-1); } };
    if (keys[ev.key]) { keys[ev.key](); ev.preventDefault(); }
  });
  window.addEventListener("hashchange", fromHash);
  applyFilters();
  if (!fromHash() && GAMES.length) openGame(GAMES[0].i, null);
  window.pdnkitViewer = { state: state, open: openGame, go: go, selectFinding: selectFinding };
})();
