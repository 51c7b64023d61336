// The mirror page: follows the table's game over a WebSocket and draws it.
// Plain JavaScript, no build step, no library. Everything shown comes from the server's
// message ({status, game, view, log, last, seat, actions}); text is always set with
// textContent, never parsed as HTML, because player names are typed at the table.
"use strict";

(() => {
  const seatMatch = location.pathname.match(/^\/seat\/([A-Za-z0-9_-]{16,64})$/);
  const token = seatMatch ? seatMatch[1] : null;
  const streamPath = token ? `/api/seat/${token}/stream` : "/api/stream";
  const actionPath = token ? `/api/seat/${token}/action` : null;
  const SEAT_GONE = 4404;
  const SILENCE_MS = 40000; // the server says something at least every 15 s

  let socket = null;
  let retry = 0;
  let retryTimer = null;
  let lastHeard = 0;
  let gone = false;
  let current = null;
  let rawOpen = false;
  let chosen = null; // a private choice waiting for its confirmation tap
  let notice = null; // {text, good}

  // -- DOM helpers ---------------------------------------------------------------------------

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    setAttrs(el, attrs);
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : String(kid));
    }
    return el;
  }

  const SVGNS = "http://www.w3.org/2000/svg";
  function s(tag, attrs, ...kids) {
    const el = document.createElementNS(SVGNS, tag);
    setAttrs(el, attrs);
    for (const kid of kids.flat()) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : String(kid));
    }
    return el;
  }

  function setAttrs(el, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "on") {
        for (const [event, fn] of Object.entries(value)) el.addEventListener(event, fn);
      } else if (key === "style") {
        el.style.cssText = value; // CSSOM, which the page's CSP allows (a style attribute it would not)
      } else {
        el.setAttribute(key, value === true ? "" : String(value));
      }
    }
  }

  // -- reading views defensively -------------------------------------------------------------

  const isObj = (x) => x !== null && typeof x === "object" && !Array.isArray(x);
  const has = (x) => x !== undefined && x !== null;

  function pick(...values) {
    for (const v of values) if (has(v)) return v;
    return undefined;
  }

  function list(x) {
    if (Array.isArray(x)) return x;
    if (isObj(x)) return Object.entries(x).map(([id, v]) => (isObj(v) && !has(v.id) ? { id, ...v } : v));
    return [];
  }

  function count(x) {
    if (typeof x === "number") return x;
    if (Array.isArray(x)) return x.length;
    if (isObj(x) && typeof x.count === "number") return x.count;
    return undefined;
  }

  function words(id) {
    const text = String(id).replace(/[_-]+/g, " ").trim();
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function label(x) {
    if (!has(x)) return "";
    if (typeof x === "string") return /[A-Z ]/.test(x) ? x : words(x);
    if (typeof x === "number" || typeof x === "boolean") return String(x);
    if (Array.isArray(x)) return x.map(label).join(", ");
    const named = pick(x.name, x.title, x.label, x.card, x.character, x.id, x.type);
    return has(named) ? label(named) : JSON.stringify(x);
  }

  function cell(x) {
    if (Array.isArray(x) && x.length >= 2) return [Number(x[0]), Number(x[1])];
    if (isObj(x)) {
      const col = pick(x.x, x.col, x.column, x.q);
      const row = pick(x.y, x.row, x.r);
      if (has(col) && has(row)) return [Number(col), Number(row)];
    }
    if (typeof x === "string" && /^-?\d+\s*,\s*-?\d+$/.test(x)) return x.split(",").map(Number);
    return null;
  }

  const SIDES = { n: "north", north: "north", up: "north", top: "north", e: "east", east: "east", right: "east",
    s: "south", south: "south", down: "south", bottom: "south", w: "west", west: "west", left: "west" };

  function sides(doors) {
    if (Array.isArray(doors)) return doors.map((d) => SIDES[String(d).toLowerCase()]).filter(Boolean);
    if (isObj(doors)) return Object.entries(doors).filter(([, v]) => v).map(([k]) => SIDES[k.toLowerCase()]).filter(Boolean);
    return [];
  }

  // -- the connection ------------------------------------------------------------------------

  function setLink(state, text) {
    const link = document.getElementById("link");
    link.className = `link ${state}`;
    document.getElementById("link-text").textContent = text;
  }

  function connect() {
    clearTimeout(retryTimer);
    if (gone || (socket && socket.readyState <= 1)) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let sock;
    try {
      sock = new WebSocket(scheme + location.host + streamPath);
    } catch (err) {
      reconnectLater();
      return;
    }
    socket = sock;
    setLink("", "connecting…");
    sock.onopen = () => {
      retry = 0;
      lastHeard = Date.now();
      setLink("live", "live");
    };
    sock.onmessage = (event) => {
      lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (err) {
        return;
      }
      if (message.heartbeat) return;
      render(message);
    };
    sock.onclose = (event) => {
      if (socket !== sock) return;
      socket = null;
      if (event.code === SEAT_GONE) {
        expired();
        return;
      }
      reconnectLater();
    };
  }

  function reconnectLater() {
    setLink("down", "reconnecting…");
    const delay = Math.min(8000, 400 * 2 ** retry) * (0.75 + Math.random() * 0.5);
    retry = Math.min(retry + 1, 6);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, delay);
  }

  function dropDeadLink() {
    // A Wi-Fi drop often closes nothing: the socket just falls silent. Let it go and start over.
    const dead = socket;
    socket = null;
    if (dead) {
      dead.onclose = null;
      try { dead.close(); } catch (err) { /* already gone */ }
    }
    retry = 0;
    reconnectLater();
  }

  setInterval(() => {
    if (socket && socket.readyState === 1 && Date.now() - lastHeard > SILENCE_MS) dropDeadLink();
  }, 5000);
  window.addEventListener("online", () => { retry = 0; if (!socket) connect(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    if (socket && Date.now() - lastHeard > SILENCE_MS) dropDeadLink();
    else if (!socket) { retry = 0; connect(); }
  });

  function expired() {
    gone = true;
    setLink("down", "link expired");
    current = null;
    document.getElementById("seat-banner").hidden = true;
    document.getElementById("main").replaceChildren(
      h("section", { class: "card idle" },
        h("div", { class: "moon", "aria-hidden": "true" }, "☾"),
        h("h1", {}, "This seat link has expired"),
        h("p", {}, "It belonged to a game that is no longer on the table. Scan the new code on the table's Phones screen."),
        h("p", {}, h("a", { href: "/" }, "Follow the table without a seat"))));
  }

  // -- large text ----------------------------------------------------------------------------

  function applyBig(on) {
    document.documentElement.classList.toggle("big", on);
    document.getElementById("bigger").setAttribute("aria-pressed", on ? "true" : "false");
  }
  function storedBig() {
    try { return localStorage.getItem("dreamtable-big") === "1"; } catch (err) { return false; }
  }
  document.getElementById("bigger").addEventListener("click", () => {
    const on = !document.documentElement.classList.contains("big");
    applyBig(on);
    try { localStorage.setItem("dreamtable-big", on ? "1" : "0"); } catch (err) { /* private mode */ }
  });
  applyBig(storedBig());

  // -- drawing -------------------------------------------------------------------------------

  const GAME_NAMES = { chainsomnia: "CHAINsomnia", somnicum: "Somnicum" };

  function render(message) {
    current = message;
    const main = document.getElementById("main");
    const banner = document.getElementById("seat-banner");
    const name = GAME_NAMES[message.game] || (message.game ? words(message.game) : "");
    document.getElementById("title").textContent = name || "Dreamtable";
    document.title = name ? `${name} · Dreamtable` : "Dreamtable";
    main.dataset.version = message.version;
    main.dataset.status = message.status;
    if (message.status === "idle") {
      banner.hidden = true;
      main.className = "";
      main.replaceChildren(idleCard());
      return;
    }
    const view = isObj(message.view) ? message.view : {};
    const cards = [statusCard(message, view)];
    if (token) {
      banner.hidden = false;
      banner.textContent = `Private page of ${seatName(view, message.seat)}: keep this screen to yourself.`;
      cards.push(privateCard(message, view));
    }
    // the log's newest line says what just happened; an undo or the end deserves more
    const last = message.last;
    if (last && last.text && (last.kind === "undo" || last.kind === "end" || (last.put_back || []).length)) {
      cards.push(lastCard(last));
    }
    if (message.game === "chainsomnia") cards.push(...chainsomniaCards(view));
    else if (message.game === "somnicum") cards.push(...somnicumCards(view, message.status === "over"));
    cards.push(logCard(message.log || []));
    cards.push(rawCard(view));
    main.className = "playing";
    main.replaceChildren(...cards.filter(Boolean));
  }

  function idleCard() {
    return h("section", { class: "card idle" },
      h("div", { class: "moon", "aria-hidden": "true" }, "☾"),
      h("h1", {}, "No game in progress"),
      h("p", { class: "muted" }, "Keep this page open: it shows the game as soon as one starts on the table."));
  }

  function seatName(view, seat) {
    const people = list(pick(view.players, view.characters, view.seats));
    const person = people[seat];
    const name = person && pick(person.player, person.name, person.character);
    return has(name) ? label(name) : `seat ${Number(seat) + 1}`;
  }

  function currentName(view) {
    const turn = pick(view.turn, view.current, view.active, view.current_player, view.current_character, view.to_play);
    if (!has(turn)) return undefined;
    if (typeof turn === "number") {
      const people = list(pick(view.players, view.characters));
      return people[turn] ? label(pick(people[turn].name, people[turn].character, people[turn].player)) : `Seat ${turn + 1}`;
    }
    if (isObj(turn)) return label(pick(turn.character, turn.player, turn.name, turn.seat));
    return label(turn);
  }

  function statusCard(message, view) {
    const pills = [];
    const round = pick(view.round, view.round_number);
    if (has(round)) pills.push(h("span", { class: "pill" }, `Round ${round}`));
    const phase = pick(view.phase, view.step, isObj(view.turn) ? view.turn.phase : undefined);
    const daemon = /daemon/i.test(String(phase || "")) || /daemon/i.test(String(view.turn || ""));
    if (message.status === "over") pills.push(h("span", { class: "pill over" }, "Game over"));
    else if (daemon) pills.push(h("span", { class: "pill daemon" }, "The Daemon's turn"));
    else {
      const who = currentName(view);
      if (who) pills.push(h("span", { class: "pill hot" }, `${who}'s turn`));
      else if (has(phase)) pills.push(h("span", { class: "pill" }, label(phase)));
    }
    const waiting = pick(view.pending, view.waiting_for, view.awaiting, view.prompt, view.decision, view.chance);
    const result = message.status === "over" ? pick(view.result, view.outcome) : undefined;
    return h("section", { class: "card wide status" },
      h("div", { class: "status-line" }, pills),
      has(waiting) ? h("p", { class: "waiting" }, "Waiting for: ", pendingText(waiting)) : null,
      has(result) ? h("p", { class: "result" }, label(isObj(result) ? pick(result.text, result.summary, result.outcome, result) : result)) : null);
  }

  function pendingText(p) {
    if (typeof p === "string") return p;
    if (isObj(p)) return label(pick(p.text, p.prompt, p.message, p.description, p.say, p.kind, p.type, p));
    return label(p);
  }

  function lastCard(last) {
    const undo = last.kind === "undo";
    return h("section", { class: `card wide last${undo ? " undo" : ""}`, id: "last" },
      h("p", {}, h("strong", {}, undo ? "Undone. " : ""), last.text),
      last.put_back && last.put_back.length
        ? h("div", {}, h("strong", {}, "Put back on the table:"), h("ul", {}, last.put_back.map((line) => h("li", {}, line))))
        : null);
  }

  function logCard(lines) {
    const items = lines.slice().reverse().map((line) =>
      h("li", { class: `${line.kind || "action"}${line.undone ? " undone" : ""}` },
        h("span", { class: "seq" }, has(line.seq) ? `${line.seq}` : ""),
        h("span", { class: "text" }, line.kind === "undo" ? `↶ ${line.text}` : line.text)));
    return h("section", { class: "card log" },
      h("h2", {}, "What happened"),
      items.length ? h("ol", { reversed: true }, items) : h("p", { class: "muted" }, "Nothing yet."));
  }

  function rawCard(view) {
    const keys = Object.keys(view);
    if (!keys.length) return null;
    const details = h("details", { class: "card raw wide" },
      h("summary", {}, "Everything the table shares"),
      h("dl", { class: "kv" }, keys.map((k) => [h("dt", {}, words(k)), h("dd", {}, brief(view[k]))])));
    details.open = rawOpen;
    details.addEventListener("toggle", () => { rawOpen = details.open; });
    return details;
  }

  function brief(value) {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }

  // -- CHAINsomnia ---------------------------------------------------------------------------

  const CHARACTER_COLOURS = { ryan: "#f08a5d", chloe: "#f9d56e", isaac: "#7ee0a8", charlotte: "#7cc6e8", vane: "#c9b8ff", timi: "#ff9ecd" };
  const PALETTE = ["#f08a5d", "#f9d56e", "#7ee0a8", "#7cc6e8", "#c9b8ff", "#ff9ecd"];

  function characterId(c) {
    return String(pick(c.character, c.id, c.name, "")).toLowerCase();
  }

  function colourOf(c, index) {
    return CHARACTER_COLOURS[characterId(c)] || PALETTE[index % PALETTE.length];
  }

  function castleTiles(view) {
    const castle = pick(view.castle, view.board, view.map);
    const raw = pick(isObj(castle) ? pick(castle.tiles, castle.rooms, castle.placed) : castle, view.tiles, view.rooms);
    let tiles;
    if (isObj(raw) && Object.keys(raw).every((k) => cell(k))) {
      tiles = Object.entries(raw).map(([k, v]) => ({ ...(isObj(v) ? v : { tile: v }), at: cell(k) }));
    } else {
      tiles = list(raw);
    }
    return tiles
      .filter(isObj)
      .map((t) => ({ t, at: cell(pick(t.at, t.cell, t.pos, t.position, t.xy, t.coords, t)) }))
      .filter((x) => x.at);
  }

  function badDreamsOf(t) {
    return list(pick(t.bad_dreams, t.badDreams, t.dreams, t.bad_dream_stack));
  }

  function whereIs(c, tiles) {
    const at = cell(pick(c.at, c.cell, c.pos, c.position, c.room_at));
    if (at) return at;
    const room = pick(c.room, c.tile, c.location);
    if (has(room)) {
      const found = tiles.find(({ t }) => [t.id, t.tile, t.name, t.key].includes(room));
      if (found) return found.at;
      const asCell = cell(room);
      if (asCell) return asCell;
    }
    return null;
  }

  function castleCard(view, characters) {
    const tiles = castleTiles(view);
    if (!tiles.length) return null;
    const size = 100;
    const xs = tiles.map(({ at }) => at[0]);
    const ys = tiles.map(({ at }) => at[1]);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const pad = 8;
    const width = (maxX - minX + 1) * size + pad * 2;
    const height = (maxY - minY + 1) * size + pad * 2;
    const place = ([x, y]) => [pad + (x - minX) * size, pad + (y - minY) * size];
    const groups = tiles.map(({ t, at }) => {
      const [x, y] = place(at);
      const id = String(pick(t.tile, t.id, t.key, t.kind, "")).toLowerCase();
      const kind = String(pick(t.kind, id));
      const dreams = badDreamsOf(t);
      const cls = ["tile", /wake/.test(kind) ? "wake" : "", /chainsomnia|start/.test(kind) ? "start" : "", dreams.length ? "dreamt" : ""].join(" ");
      const colour = String(pick(t.door_colour, t.door_color, t.colour, t.color, "none")).toLowerCase();
      const m = 6;
      const doorLines = sides(pick(t.open_doors, t.placed_doors, t.doors, t.exits)).map((side) => {
        const c = size / 2;
        const half = 14;
        const pts = {
          north: [x + c - half, y + m, x + c + half, y + m],
          south: [x + c - half, y + size - m, x + c + half, y + size - m],
          west: [x + m, y + c - half, x + m, y + c + half],
          east: [x + size - m, y + c - half, x + size - m, y + c + half],
        }[side];
        return s("line", { class: `door ${colour}`, x1: pts[0], y1: pts[1], x2: pts[2], y2: pts[3] });
      });
      const name = label(pick(t.name, t.title, t.tile, t.id, ""));
      const parts = [
        s("rect", { class: cls, x: x + m, y: y + m, width: size - 2 * m, height: size - 2 * m, rx: 10 }),
        ...doorLines,
        s("text", { class: "tile-name", x: x + size / 2, y: y + 30 }, shorten(name, 12)),
      ];
      if (dreams.length) {
        parts.push(s("rect", { class: "bd-badge", x: x + size - 50, y: y + size - 34, width: 38, height: 22, rx: 11 }));
        parts.push(s("text", { class: "bd-count", x: x + size - 31, y: y + size - 18 }, `☾ ${dreams.length}`));
        parts.push(s("title", {}, `Bad Dreams here (top first): ${dreams.map(label).join(", ")}`));
      }
      return s("g", { "data-tile": id }, parts);
    });
    // characters: small discs spread along the bottom-left of their room
    const byCell = new Map();
    characters.forEach((c, i) => {
      const at = whereIs(c, tiles);
      if (!at) return;
      const key = at.join(",");
      if (!byCell.has(key)) byCell.set(key, []);
      byCell.get(key).push([c, i]);
    });
    const tokens = [];
    for (const [key, here] of byCell) {
      const [x, y] = place(key.split(",").map(Number));
      here.forEach(([c, i], k) => {
        const col = k % 3;
        const row = Math.floor(k / 3);
        const cx = x + 24 + col * 24;
        const cy = y + 56 + row * 24;
        const caged = Boolean(pick(c.caged, c.in_cage));
        tokens.push(s("g", { "data-character": characterId(c) },
          s("circle", { class: `token-char${caged ? " caged" : ""}`, cx, cy, r: 11, fill: colourOf(c, i) }),
          s("text", { class: "token-letter", x: cx, y: cy + 4.5 }, label(pick(c.name, c.character, "?")).charAt(0)),
          s("title", {}, label(pick(c.name, c.character)))));
      });
    }
    return h("section", { class: "card castle" },
      h("h2", {}, "The castle"),
      s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `The castle: ${tiles.length} rooms` }, groups, tokens),
      h("div", { class: "legend" },
        h("span", {}, h("i", { style: "background: var(--bronze)" }), "bronze"),
        h("span", {}, h("i", { style: "background: var(--silver)" }), "silver"),
        h("span", {}, h("i", { style: "background: var(--gold)" }), "gold door"),
        h("span", {}, "☾ Bad Dreams")));
  }

  function shorten(text, n) {
    return text.length > n ? `${text.slice(0, n - 1)}…` : text;
  }

  function characterCard(c, i, turnName) {
    const name = label(pick(c.name, c.character, `Character ${i + 1}`));
    const player = pick(c.player, c.player_name, c.owner);
    const chains = count(pick(c.chains, c.chain_gauge, c.chain, c.chain_tokens));
    const cap = Number(pick(c.max_chains, c.chain_max, 6));
    const ap = pick(c.ap, c.ap_left, c.action_points);
    const apMax = pick(c.ap_max, c.ap_start);
    const caged = Boolean(pick(c.caged, c.in_cage));
    const current = Boolean(c.current || c.active) || (turnName && turnName === name);
    const items = list(pick(c.items, c.item_cards));
    const omens = list(pick(c.omens, c.events, c.event_cards));
    const attrs = pick(c.attributes, c.stats);
    const gauge = has(chains)
      ? h("div", { class: "gauge", role: "img", "aria-label": `${chains} of ${cap} chains` },
        Array.from({ length: cap }, (_, k) => h("span", { class: k < chains ? "on" : "" })))
      : null;
    return h("article", { class: `person${current ? " current" : ""}${caged ? " caged" : ""}`, "data-character": characterId(c) },
      h("header", {},
        h("span", { class: "swatch", style: `background: ${colourOf(c, i)}` }),
        h("div", {}, h("div", { class: "who" }, name), has(player) ? h("div", { class: "sub" }, label(player)) : null)),
      gauge,
      h("div", { class: "stats" },
        has(chains) ? h("span", {}, "Chains ", h("b", {}, `${chains}/${cap}`)) : null,
        has(ap) ? h("span", {}, "AP ", h("b", {}, has(apMax) ? `${ap}/${apMax}` : `${ap}`)) : null,
        caged ? h("span", { class: "caged-text" }, h("b", {}, "In a Cage")) : null,
        isObj(attrs) ? Object.entries(attrs).map(([k, v]) => h("span", {}, `${words(k).slice(0, 3)} `, h("b", {}, v))) : null),
      items.length || omens.length
        ? h("div", { class: "chips" },
          items.map((it) => h("span", { class: "chip" }, label(it))),
          omens.map((ev) => h("span", { class: `chip ${omenClass(ev)}` }, label(ev))))
        : null);
  }

  function omenClass(ev) {
    const kind = String(isObj(ev) ? pick(ev.kind, ev.omen, ev.type, "") : "").toLowerCase();
    return /bad|dream/.test(kind) ? "bad" : /good/.test(kind) ? "good" : "";
  }

  function chainsomniaCards(view) {
    const characters = list(pick(view.characters, view.players)).filter(isObj);
    const turnName = currentName(view);
    const cards = [castleCard(view, characters)];
    if (characters.length) {
      cards.push(h("section", { class: "card" }, h("h2", {}, "The children"),
        h("div", { class: "people" }, characters.map((c, i) => characterCard(c, i, turnName)))));
    }
    const decks = pick(view.decks, view.piles);
    const howling = count(pick(view.howling, view.howlings));
    const facts = [];
    if (isObj(decks)) for (const [k, v] of Object.entries(decks)) if (has(count(v))) facts.push([`${words(k)} deck`, count(v)]);
    for (const [k, name] of [["castle_left", "Castle deck"], ["events_left", "Event deck"], ["items_left", "Item deck"]]) {
      if (has(view[k])) facts.push([name, view[k]]);
    }
    if (has(howling)) facts.push(["Howling", howling]);
    const daemon = pick(view.daemon, view.daemon_turn);
    if (facts.length || has(daemon)) {
      cards.push(h("section", { class: "card" }, h("h2", {}, "Decks and the Daemon"),
        facts.length ? h("div", { class: "stats" }, facts.map(([k, v]) => h("span", {}, `${k} `, h("b", {}, v)))) : null,
        has(daemon) ? h("p", {}, pendingText(daemon)) : null));
    }
    return cards;
  }

  // -- Somnicum ------------------------------------------------------------------------------

  function storyline(card) {
    if (!isObj(card)) return "unknown";
    if (card.nightmare) return "nightmare";
    const story = String(pick(card.storyline, card.story, card.colour, "")).toLowerCase();
    if (/fairy/.test(story)) return "fairy";
    if (/under|water|sea/.test(story)) return "underwater";
    if (/space/.test(story)) return "space";
    if (/night/.test(story)) return "nightmare";
    return "unknown";
  }

  function starsOf(card) {
    if (!isObj(card)) return "";
    const stars = pick(card.stars, card.value, card.vp);
    return has(stars) ? `${card.nightmare ? "−" : ""}${stars}★` : "";
  }

  function fieldCard(view) {
    const field = pick(view.field, view.playing_field, view.circle);
    const cards = list(isObj(field) && !Array.isArray(field) ? pick(field.cards, field) : field);
    if (!cards.length) return null;
    const n = cards.length;
    const R = 120, C = 150;
    const slots = cards.map((card, i) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
      if (!has(card)) return s("circle", { cx: x, cy: y, r: 4, fill: "#3a3266" });
      return s("g", {},
        s("rect", { class: `fcard ${storyline(card)}`, x: x - 15, y: y - 20, width: 30, height: 40, rx: 4,
          transform: `rotate(${(360 * i) / n} ${x} ${y})` }),
        s("text", { class: "fcard-text", x, y: y + 4 }, starsOf(card)),
        s("title", {}, label(card)));
    });
    const wheels = pick(view.flywheels, view.wheels);
    const positions = Array.isArray(wheels) ? wheels : isObj(wheels) ? Object.entries(wheels) : [];
    const wheelMarks = positions.map((w, k) => {
      const [name, at] = Array.isArray(w) && typeof w[0] === "string" ? w : [k === 0 ? "white" : "black", w];
      const pos = Number(isObj(at) ? pick(at.position, at.at, at.index, at.between) : at);
      if (!Number.isFinite(pos)) return null;
      const a = (2 * Math.PI * (pos - 0.5)) / n - Math.PI / 2; // between card pos-1 and card pos
      const x = C + (R - 42) * Math.cos(a), y = C + (R - 42) * Math.sin(a);
      return s("circle", { class: `flywheel ${/black|dark/.test(name) ? "black" : ""}`, cx: x, cy: y, r: 10 },
        s("title", {}, `${words(name)} flywheel`));
    });
    return h("section", { class: "card field" }, h("h2", {}, "The field"),
      s("svg", { viewBox: "0 0 300 300", role: "img", "aria-label": `The field: ${cards.filter(has).length} Dream cards` },
        slots, wheelMarks));
  }

  function dreamRows(dream) {
    let levels = pick(isObj(dream) ? pick(dream.levels, dream.rows) : dream);
    levels = list(levels);
    return levels.map((level, k) => {
      const cards = list(isObj(level) ? pick(level.cards, level.row) : level);
      const gaps = isObj(level) ? list(level.gaps) : [];
      const row = [h("span", { class: "lvl" }, `L${k + 1}`)];
      cards.forEach((card, i) => {
        if (i > 0) row.push(gaps[i - 1] ? h("span", { class: "gap", title: "gap" }) : h("span", { class: "join" }));
        row.push(h("span", { class: `dcard ${storyline(card)}`, title: label(card) }, starsOf(card) || "·"));
      });
      return cards.length ? h("div", { class: "dream-row" }, row) : null;
    });
  }

  function somnicumCards(view, over) {
    const players = list(pick(view.players, view.seats)).filter(isObj);
    const cards = [fieldCard(view)];
    if (players.length) {
      const turnName = currentName(view);
      cards.push(h("section", { class: "card" }, h("h2", {}, "Dreams"),
        h("div", { class: "people" }, players.map((p, i) => {
          const name = label(pick(p.name, p.player, `Player ${i + 1}`));
          const tokens = count(pick(p.tokens, p.sleep_sand, p.sand));
          const meetings = count(pick(p.meetings, p.meeting_cards, p.hand));
          return h("article", { class: `person${turnName === name ? " current" : ""}` },
            h("header", {}, h("span", { class: "swatch", style: `background: ${PALETTE[i % PALETTE.length]}` }), h("div", { class: "who" }, name)),
            h("div", { class: "dream" }, dreamRows(pick(p.dream, p.levels))),
            h("div", { class: "stats" },
              has(tokens) ? h("span", {}, "Sleep Sand ", h("b", {}, tokens)) : null,
              has(meetings) ? h("span", {}, "Meeting cards ", h("b", {}, meetings)) : null));
        }))));
      const rows = players.map((p, i) => {
        const score = pick(p.score, p.points, p.vp, isObj(p.scores) ? p.scores.total : undefined);
        return h("tr", {}, h("td", {}, label(pick(p.name, p.player, `Player ${i + 1}`))), h("td", {}, has(score) ? (isObj(score) ? pick(score.total, label(score)) : score) : "–"));
      });
      cards.push(h("section", { class: "card" }, h("h2", {}, over ? "Final scores" : "Scores so far"),
        h("table", { class: "scores" }, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "VP"))), h("tbody", {}, rows)),
        over ? null : h("p", { class: "muted small" }, "Goal card points stay secret until the game ends.")));
    }
    return cards;
  }

  // -- a seat's own page ---------------------------------------------------------------------

  function privateCard(message, view) {
    const seat = message.seat;
    const people = list(pick(view.players, view.characters, view.seats));
    const mine = pick(view.you, view.me, view.private, view.own, people[seat]) || {};
    const goal = isObj(mine) ? pick(mine.goal, mine.goal_card) : undefined;
    const faces = isObj(mine) ? pick(mine.token_faces, mine.tokens) : undefined;
    const meetings = isObj(mine) ? pick(mine.meeting_hand, mine.meetings) : undefined;
    const actions = Array.isArray(message.actions) ? message.actions : [];
    const parts = [h("h2", {}, "Only for you")];
    if (has(goal)) parts.push(h("p", {}, "Your Goal card: ", h("strong", { class: "goal" }, goalText(goal))));
    if (Array.isArray(faces)) parts.push(h("p", {}, "Your Sleep Sand tokens: ", faces.length ? faces.map(label).join(", ") : "none"));
    if (Array.isArray(meetings) && meetings.length) parts.push(h("p", {}, "Meeting cards in hand: ", meetings.map(label).join(", ")));
    if (actions.length) {
      parts.push(h("p", {}, "Enter your secret card. Nobody else sees it; the table only learns that you did."));
      if (chosen !== null && actions.some((a) => JSON.stringify(a) === JSON.stringify(chosen))) {
        parts.push(h("div", { class: "choices" },
          h("button", { type: "button", class: "confirm", on: { click: () => send(chosen) } }, `Send: ${actionLabel(chosen)}`),
          h("button", { type: "button", on: { click: () => { chosen = null; render(current); } } }, "Choose again")));
      } else {
        parts.push(h("div", { class: "choices" }, actions.map((action) =>
          h("button", { type: "button", "data-action": JSON.stringify(action), on: { click: () => { chosen = action; notice = null; render(current); } } }, actionLabel(action)))));
      }
    }
    if (notice) parts.push(h("p", { class: `notice ${notice.good ? "good" : "bad"}` }, notice.text));
    if (parts.length === 1) parts.push(h("p", { class: "muted" }, "Nothing secret to show right now."));
    return h("section", { class: "card wide private" }, parts);
  }

  function goalText(goal) {
    if (isObj(goal)) {
      const particles = list(pick(goal.particles, goal.symbols));
      const name = label(pick(goal.name, goal.id, ""));
      return particles.length ? `${name}${name ? ": " : ""}${particles.map(label).join(", ")}` : name;
    }
    return label(goal);
  }

  function actionLabel(action) {
    return label(pick(action.label, action.goal, action.card, action.choice, action.type));
  }

  async function send(action) {
    chosen = null;
    notice = { text: "Sending…", good: true };
    render(current);
    try {
      const reply = await fetch(actionPath, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(action),
        cache: "no-store",
      });
      const body = await reply.json().catch(() => ({}));
      notice = body.accepted
        ? { text: "Done. The table has it, and nobody saw it.", good: true }
        : { text: (body.error && body.error.message) || "The table refused it.", good: false };
    } catch (err) {
      notice = { text: "Not sent: the table cannot be reached. Try again.", good: false };
    }
    if (current) render(current);
  }

  connect();
})();
