// The table page: follows /api/events (one whole state per commit), draws it, and says so when the unit is lost.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("t") || "";
  let TEXTS = {};  // the page's words in the game's language (state.texts: English text to translation)
  // A word of the page in the game's language (English when the server sent none), its {fields} filled.
  const t = (text, fields) => (TEXTS[text] || text).replace(/\{(\w+)\}/g, (m, k) => (fields && k in fields ? fields[k] : m));
  const GROUPS = { "brown": "Brown", "light-blue": "Light blue", "pink": "Pink", "orange": "Orange", "red": "Red",
    "yellow": "Yellow", "green": "Green", "dark-blue": "Dark blue", "railroad": "Railroads", "utility": "Utilities" };
  const SILENT_MS = 25000;   // the server says something every 10 s; silence this long means the unit is gone
  const LIVE_STALE_MS = 10000;  // an open live view is sent every second: silence this long means it is over
  const LIVE_ENDED_MS = 8000;   // "Sold to Bob for 1.5M" stays this long
  const CALLS = { "going once": "Going once!", "going twice": "Going twice!" };  // an auction's call, as shown
  let source = null, lastHeard = 0, retryMs = 1000, retryTimer = null, previous = {}, refused = false, liveTimer = null;

  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const child of children) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }
  const sr = (text) => el("span", { class: "sr" }, text);
  const clear = (node) => { while (node.firstChild) node.removeChild(node.firstChild); return node; };
  // A time of day in the game's language, never the browser's: 24 h in each, as the unit writes an hour (21.30 K).
  const clocks = {};
  const clock = (epoch) => {
    if (!epoch) return "";
    const lang = document.documentElement.lang || "en";
    clocks[lang] = clocks[lang] || new Intl.DateTimeFormat(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    return clocks[lang].format(new Date(epoch * 1000));
  };
  // An amount in full, for a screen reader: "15,000,000 dollars", its digits grouped the game's language's way.
  const dollars = (n) => t("{amount} dollars", { amount: n.toLocaleString(document.documentElement.lang || "en") });

  // -- drawing one state -----------------------------------------------------------------------

  // The page's fixed words (page.html's, marked data-t) in the game's language.
  function drawWords(s) {
    TEXTS = s.texts || {};
    document.documentElement.lang = s.language || "en";
    for (const node of document.querySelectorAll("[data-t]")) {
      if (!node.dataset.t) node.dataset.t = node.textContent;
      node.textContent = t(node.dataset.t);
    }
    $("live-text").textContent = t("Live");
    $("speak-state").textContent = speech.on ? t("on") : t("off");
  }

  function draw(s) {
    document.body.dataset.seq = s.seq;
    drawWords(s);
    const stick = $("stick");  // the unit's backup stick can't take a backup: said while play goes on
    stick.hidden = !s.stick;
    stick.textContent = s.stick ? s.stick.text : "";
    stick.dataset.cause = s.stick ? s.stick.cause : "";
    if (!s.game) {
      $("game-line").textContent = t("No game has started yet");
      $("house-rules").hidden = true;
      return;
    }
    const g = s.game;
    $("game-line").textContent = [t("Game {id}", { id: g.id }), ...g.modes, t("{n} transactions", { n: g.transactions })]
      .concat(g.bankruptcies ? [t("{n} bankrupt", { n: g.bankruptcies })] : []).join(" · ");
    drawHouse(g);
    const over = $("over");
    over.hidden = !g.over;
    over.textContent = g.over || "";
    const colour = {};
    s.players.forEach((p, i) => { colour[p.name] = "c" + (i % 8); });
    drawBalances(s, colour);
    drawDeeds(s, colour);
    drawBank(s.bank);
    drawStandings(s.standings);
    drawChart(s.worth, colour);
    drawJournal(s.journal, colour);
    drawLatest(s.journal[s.journal.length - 1], colour);
    readAloud(s);
  }

  // The house rules' line under the game line: the Free Parking pot, the time left of a time-limit game.
  function drawHouse(g) {
    const pot = $("pot"), left = $("time-left");
    pot.hidden = g.pot === null;
    if (!pot.hidden) {
      const changed = "pot" in previous && previous.pot !== g.pot;
      clear(pot).append(el("span", { class: "label" }, t("Free Parking")), " ",
        el("b", { class: "amount" + (changed ? " flash" : "") }, g.pot_text));
      pot.setAttribute("aria-label", t("Free Parking pot: {amount}", { amount: `${g.pot_text}, ${dollars(g.pot)}` }));
      pot.dataset.pot = g.pot;
      if (changed) setTimeout(() => pot.querySelectorAll(".flash").forEach((n) => n.classList.remove("flash")), 1500);
    }
    previous.pot = g.pot;
    left.hidden = !g.time_left_text;
    left.textContent = g.time_left_text || "";
    left.className = "chip time" + (g.time_up ? " up" : g.time_left !== null && g.time_left <= 300 ? " low" : "");
    $("house-rules").hidden = pot.hidden && left.hidden;
  }

  function drawBalances(s, colour) {
    const list = clear($("balance-list"));
    const before = previous.balances || {};
    for (const p of s.players) {
      const item = el("li", { class: colour[p.name] + (p.in_game ? "" : " out") + (p.name in before && before[p.name] !== p.balance ? " flash" : "") },
        el("span", { class: "name" }, p.name),
        el("span", { class: "amount", "aria-hidden": "true" }, p.balance_text), sr(dollars(p.balance)),
        el("span", { class: "extra" }, t("worth {amount}", { amount: p.worth_text }) + (p.deeds ? " · " + (p.deeds > 1 ? t("{n} deeds", { n: p.deeds }) : t("1 deed")) : "") +
          (p.jail_cards ? " · " + (p.jail_cards > 1 ? t("{n} jail cards", { n: p.jail_cards }) : t("1 jail card")) : "") + (p.in_game ? "" : " · " + t("out"))));
      item.dataset.player = p.name;
      item.dataset.balance = p.balance;
      list.append(item);
    }
    if (!s.players.length) list.append(el("li", {}, el("span", { class: "name" }, t("No players enrolled yet"))));
    previous.balances = Object.fromEntries(s.players.map((p) => [p.name, p.balance]));
    setTimeout(() => document.querySelectorAll(".balances li.flash").forEach((n) => n.classList.remove("flash")), 1500);
  }

  function deedChip(d) {
    const label = [d.name];
    const chip = el("span", { class: `deed g-${d.group}` + (d.mortgaged ? " mortgaged" : ""), title: d.name },
      el("span", { "aria-hidden": "true" }, d.short));
    if (d.hotel) {
      chip.append(el("span", { class: "hotel", "aria-hidden": "true" }, t("HOTEL")));
      label.push(t("a hotel"));
    } else if (d.houses) {
      const row = el("span", { class: "houses", "aria-hidden": "true" });
      for (let i = 0; i < d.houses; i++) row.append(el("i", { class: "house" }));
      chip.append(row);
      label.push(d.houses === 1 ? t("1 house") : t("{n} houses", { n: d.houses }));
    }
    if (d.mortgaged) {
      chip.append(el("span", { class: "tag", "aria-hidden": "true" }, t("MORTGAGED")));
      label.push(t("mortgaged"));
    }
    chip.append(sr(label.join(", ")));
    return chip;
  }

  function drawDeeds(s, colour) {
    const box = clear($("deed-list"));
    const sizes = {};
    for (const d of s.deeds) sizes[d.group] = (sizes[d.group] || 0) + 1;
    for (const p of s.players) {
      const mine = s.deeds.filter((d) => d.owner === p.name);
      if (!mine.length) continue;
      const groups = el("ul", { class: "groups" });
      const byGroup = new Map();
      for (const d of mine) { if (!byGroup.has(d.group)) byGroup.set(d.group, []); byGroup.get(d.group).push(d); }
      for (const [group, deeds] of byGroup) {
        const whole = deeds.length === sizes[group];
        groups.append(el("li", { class: `group g-${group}`, "aria-label": t("{group}: {n} of {m}", { group: GROUPS[group] ? t(GROUPS[group]) : group, n: deeds.length, m: sizes[group] }) },
          el("span", { class: "gname" }, el("b", {}, GROUPS[group] ? t(GROUPS[group]) : group), ` ${deeds.length}/${sizes[group]}` + (whole ? " · " + t("whole group") : "")),
          ...deeds.map(deedChip)));
      }
      box.append(el("article", { class: "owner " + colour[p.name] }, el("h3", {}, p.name), groups));
    }
    if (!box.firstChild) box.append(el("p", { class: "none" }, t("Every deed is still with the bank.")));
  }

  function drawBank(b) {
    const list = clear($("bank-list"));
    const row = (term, value, spoken) => el("div", {}, el("dt", {}, term),
      el("dd", {}, el("span", { "aria-hidden": "true" }, value), sr(spoken)));
    list.append(row(t("Houses"), b.houses, t("{n} of {m} houses left", { n: b.houses, m: b.house_stock })),
      row(t("Hotels"), b.hotels, t("{n} of {m} hotels left", { n: b.hotels, m: b.hotel_stock })),
      row(t("Unsold deeds"), b.unsold, t("{n} deeds unsold", { n: b.unsold })),
      row(t("Jail cards"), b.jail_cards, t("{n} Get Out of Jail Free cards in the decks", { n: b.jail_cards })));
  }

  function drawStandings(rows) {
    const list = clear($("standing-list"));
    for (const r of rows) {
      list.append(el("li", { class: r.place === 1 ? "first" : "" }, el("span", { class: "place" }, `${r.place}.`),
        el("span", { class: "name" }, r.name),
        el("span", { class: "value" }, el("span", { "aria-hidden": "true" }, r.value_text), sr(dollars(r.value)))));
    }
    if (!rows.length) list.append(el("li", {}, el("span", {}), el("span", { class: "name" }, t("Nobody is in the game"))));
  }

  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // A chart squeezed short (the TV's page full) shows every other value of its axis rather than letting them overlap.
  const thinTicks = new ResizeObserver((seen) => {
    for (const { target } of seen) {
      const ticks = target.children, tall = ticks.length ? ticks[0].offsetHeight : 0;
      target.classList.toggle("thin", target.clientHeight / Math.max(1, ticks.length - 1) < tall * 1.2);
    }
  });

  function drawChart(w, colour) {
    const box = clear($("chart-box"));
    const legend = clear($("chart-legend"));
    const W = 600, H = 250, left = 0, right = 2, top = 10, bottom = 8;
    const ticks = w.ticks, lo = ticks[0][0], hi = Math.max(ticks[ticks.length - 1][0], lo + 1), n = w.points.length;
    const x = (i) => left + (n > 1 ? i / (n - 1) : 0) * (W - left - right);
    const y = (v) => top + (1 - (Math.min(hi, Math.max(lo, v)) - lo) / (hi - lo)) * (H - top - bottom);
    const now = w.players.map((name, k) => `${name} ${dollars(n && w.points[n - 1][1][k] !== null ? w.points[n - 1][1][k] : 0)}`);
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: "none", role: "img",
      "aria-labelledby": "chart-title chart-desc" });
    const yaxis = el("div", { class: "yaxis", "aria-hidden": "true" }), xaxis = el("div", { class: "xaxis", "aria-hidden": "true" });
    chart.append(svg("title", { id: "chart-title" }, t("Total worth of each player over the game")),
      svg("desc", { id: "chart-desc" }, t("Cash, deeds and buildings after each of {n} transactions. Now: {worths}.",
        { n, worths: now.join(", ") })));
    for (const [value, text] of ticks) {
      chart.append(svg("line", { class: "grid", x1: left, x2: W - right, y1: y(value), y2: y(value) }));
      const label = el("span", { class: "tick" }, text);
      label.style.top = `${(y(value) / H * 100).toFixed(2)}%`;
      yaxis.append(label);
    }
    if (n) xaxis.append(el("span", { class: "tick" }, `#${w.points[0][0]}`), el("span", { class: "tick" }, `#${w.points[n - 1][0]}`));
    w.players.forEach((name, k) => {
      const pts = [];
      w.points.forEach((p, i) => { if (p[1][k] !== null) pts.push(`${x(i).toFixed(1)},${y(p[1][k]).toFixed(1)}`); });
      if (pts.length === 1) pts.push(`${(W - right).toFixed(1)},${pts[0].split(",")[1]}`);
      chart.append(svg("polyline", { class: colour[name] || "c0", points: pts.join(" ") }));
      legend.append(el("span", { class: colour[name] || "c0" }, name));
    });
    box.append(yaxis, chart, xaxis);
    thinTicks.disconnect();
    thinTicks.observe(yaxis);
  }

  // A journal entry's sentence: text and names take turns (even: text, odd: a name, set apart in its colour).
  function sentence(e, colour) {
    const says = e.says && e.says.length ? e.says : [e.memo];
    return says.map((part, i) => i % 2 ? el("bdi", { class: "who " + (colour[part] || "") }, part) : part);
  }

  function drawLatest(last, colour) {
    const line = $("latest");
    const key = last ? `${last.id} ${last.undone}` : "";
    line.hidden = !last;
    if (!last || key === previous.latest) return;  // the live region speaks only when something happened
    previous.latest = key;
    clear(line).append(el("span", { class: "label" }, t("Last")), " ", el("span", { class: "num" }, `#${last.id}`), " ",
      el("span", { class: "says" + (last.undone ? " undone" : "") }, ...sentence(last, colour)));
    if (last.undone) line.append(el("span", { class: "badge" }, t("undone")));
  }

  function drawJournal(entries, colour) {
    const list = clear($("journal-list"));
    for (const e of entries.slice().reverse()) {
      const badges = [];
      if (e.undone) badges.push(el("span", { class: "badge" }, t("undone")));
      if (e.reverses) badges.push(el("span", { class: "badge" }, t("undoes #{id}", { id: e.reverses })));
      list.append(el("li", { class: e.undone ? "undone" : "", "data-id": e.id },
        el("span", { class: "num" }, `#${e.id}`),
        el("span", { class: "says" }, ...sentence(e, colour), ...badges),
        el("span", { class: "when" }, clock(e.time))));
    }
    if (!entries.length) list.append(el("li", {}, el("span", {}), el("span", { class: "says" }, t("Nothing yet"))));
  }

  // -- the unit's live view (docs/web.md, "Live views"): a timed auction before its sale is journalled -----------

  function drawDeal(v) {  // a whole deal being built on the unit: each side's part, who agreed
    const box = $("deal-view");
    if (!v || v.kind !== "deal") { box.hidden = true; return; }
    box.hidden = false;
    box.dataset.stage = v.stage;
    const side = (name, gives, id) => {
      $(id).textContent = t("{name} gives", { name });
      const list = $(id + "-gives");
      list.replaceChildren();
      const parts = [...gives.deed_names];
      if (gives.cash_text) parts.push(gives.cash_text);
      if (gives.jail_cards) parts.push(gives.jail_cards === 1 ? t("a Get Out of Jail Free card") : t("{n} Get Out of Jail Free cards", { n: gives.jail_cards }));
      for (const part of parts.length ? parts : [t("nothing yet")]) list.append(el("li", {}, part));
    };
    side(v.first, v.first_gives, "deal-first");
    side(v.second, v.second_gives, "deal-second");
    $("deal-title").textContent = t("Deal: {first} and {second}", { first: v.first, second: v.second });
    $("deal-agreed").textContent = v.confirmed.length ? t("Agreed: {names}", { names: v.confirmed.length > 1 ? t("{items} and {last}",
      { items: v.confirmed.slice(0, -1).join(", "), last: v.confirmed[v.confirmed.length - 1] }) : v.confirmed[0] }) : "";
  }

  function drawLive(v) {
    const box = $("live-view");
    clearTimeout(liveTimer);
    drawDeal(v);
    if (!v || v.kind !== "auction") { box.hidden = true; return; }
    const open = v.state === "open";
    box.hidden = false;
    box.className = "live-view" + (open ? "" : " ended");
    box.dataset.state = v.state;
    $("live-lot").textContent = v.lot;
    $("live-price").textContent = t("(price {amount})", { amount: v.price_text });
    $("live-high").textContent = v.high_text || t("No bid");
    $("live-bidder").textContent = v.bidder || "";
    $("live-seconds").textContent = open ? t("{n} s left", { n: v.seconds }) : "";
    $("live-call").textContent = open ? (v.call ? t(CALLS[v.call] || v.call) : "") : (v.text || "");
    liveTimer = setTimeout(() => { box.hidden = true; }, open ? LIVE_STALE_MS : LIVE_ENDED_MS);
  }

  /*SPEECH*/ // speech.js, inlined here by the server (web/server.py page_bytes): reading each commit aloud

  // -- staying connected -----------------------------------------------------------------------

  function status(live, text, banner) {
    const node = $("live");
    node.className = "live " + (live ? "on" : "off");
    $("live-text").textContent = text;
    const lost = $("lost");
    lost.hidden = !banner;
    lost.textContent = banner || "";
    document.body.classList.toggle("stale", !live);
  }

  function connect() {
    clearTimeout(retryTimer);
    if (source) source.close();
    source = new EventSource("/api/events?t=" + encodeURIComponent(token));
    source.addEventListener("state", (ev) => {
      lastHeard = Date.now();
      retryMs = 1000;
      status(true, t("Live"));
      draw(JSON.parse(ev.data));
    });
    source.addEventListener("live", (ev) => {
      lastHeard = Date.now();
      drawLive(JSON.parse(ev.data));
    });
    source.addEventListener("ping", () => { lastHeard = Date.now(); });
    source.onerror = () => lost();
  }

  function lost() {
    if (source) { source.close(); source = null; }
    drawLive(null);
    if (refused) return;
    status(false, t("Offline"), t("Lost the unit. Reconnecting…"));
    fetch("/api/state", { headers: { Authorization: "Bearer " + token }, cache: "no-store" }).then((r) => {
      if (r.status === 401) {
        refused = true;
        status(false, t("Refused"), t("This page's access code is no longer valid: scan the QR code on the unit again (FN K)."));
        return;
      }
      if (!r.ok) throw new Error(String(r.status));
      retryMs = 1000;
      connect();
    }).catch(() => {
      retryTimer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10000);
    });
  }

  setInterval(() => {
    if (source && source.readyState === EventSource.OPEN && lastHeard && Date.now() - lastHeard > SILENT_MS) lost();
  }, 5000);
  connect();
})();
