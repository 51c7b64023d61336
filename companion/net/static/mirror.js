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
      if (token && event.code === 1006) {
        // refused at the handshake: the link may have expired while this phone was away
        fetch(`/api/seat/${token}/state`, { cache: "no-store" })
          .then((reply) => (reply.status === 404 ? expired() : reconnectLater()))
          .catch(() => reconnectLater());
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
    const game = message.game === "chainsomnia" ? CHAINSOMNIA : message.game === "somnicum" ? SOMNICUM : OTHER;
    const cards = [statusCard(message, view, game)];
    if (token) {
      banner.hidden = false;
      banner.textContent = `Private page of ${game.seatName(view, message.seat)}: keep this screen to yourself.`;
      cards.push(privateCard(message, view, game));
    }
    // the log's newest line says what just happened; an undo or the end deserves more
    const last = message.last;
    if (last && last.text && (last.kind === "undo" || last.kind === "end" || (last.put_back || []).length)) {
      cards.push(lastCard(last));
    }
    cards.push(...game.cards(view, message.status === "over"));
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

  function statusCard(message, view, game) {
    const pills = [];
    const round = pick(view.round, view.round_number);
    if (has(round)) pills.push(h("span", { class: "pill" }, has(view.rounds) ? `Round ${round} of ${view.rounds}` : `Round ${round}`));
    if (message.status === "over") pills.push(h("span", { class: "pill over" }, "Game over"));
    else {
      const turn = game.turn(view);
      if (turn) pills.push(h("span", { class: `pill ${turn.daemon ? "daemon" : "hot"}` }, turn.text));
    }
    const pending = isObj(view.pending) ? view.pending : null;
    const waiting = pending ? pick(pending.text, pending.prompt, pending.kind) : undefined;
    const result = message.status === "over" ? game.result(view) : null;
    return h("section", { class: "card wide status" },
      h("div", { class: "status-line" }, pills),
      has(waiting) && message.status !== "over" ? h("p", { class: "waiting" }, label(waiting)) : null,
      result ? h("p", { class: "result" }, h("strong", {}, result)) : null);
  }

  function lastCard(last) {
    const undo = last.kind === "undo";
    return h("section", { class: `card wide last${undo ? " undo" : ""}`, id: "last" },
      h("p", {}, last.text),
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
      items.length ? h("ol", {}, items) : h("p", { class: "muted" }, "Nothing yet."));
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

  function shorten(text, n) {
    return text.length > n ? `${text.slice(0, n - 1)}…` : text;
  }

  function chips(things, cls) {
    return things.map((thing) => h("span", { class: `chip ${cls(thing)}`, title: label(thing) }, label(thing)));
  }

  // -- a game without its own drawing (a new game, a test game) -------------------------------

  const OTHER = {
    seatName(view, seat) {
      const people = list(pick(view.players, view.characters, view.seats));
      const person = people[seat];
      const name = isObj(person) ? pick(person.name, person.player, person.character) : person;
      return has(name) ? label(name) : `seat ${Number(seat) + 1}`;
    },
    turn(view) {
      const turn = pick(view.turn, view.current, view.active);
      if (!has(turn)) return null;
      if (typeof turn === "number") return { text: `${OTHER.seatName(view, turn)}'s turn` };
      return { text: `${label(turn)}'s turn` };
    },
    result(view) {
      const result = pick(view.result, view.outcome);
      return has(result) ? label(isObj(result) ? pick(result.text, result.summary, result) : result) : null;
    },
    cards(view) {
      const people = list(pick(view.players, view.seats)).filter(isObj);
      if (!people.length) return [];
      return [h("section", { class: "card" }, h("h2", {}, "Players"),
        h("div", { class: "people" }, people.map((p, i) =>
          h("article", { class: "person" },
            h("header", {}, h("span", { class: "swatch", style: `background: ${PALETTE[i % PALETTE.length]}` }),
              h("div", { class: "who" }, label(pick(p.name, p.player, `Player ${i + 1}`))))))))];
    },
    private() {
      return [];
    },
  };

  const PALETTE = ["#f08a5d", "#f9d56e", "#7ee0a8", "#7cc6e8", "#c9b8ff", "#ff9ecd"];

  // -- CHAINsomnia ---------------------------------------------------------------------------

  // How CHAINsomnia's rules name a defeat (view.cause), in the table's words.
  const DEFEATS = {
    event_deck_empty: "the Event deck ran out before the children woke up",
    caged: "the Daemon has caught too many children in its Cages",
  };

  const CHARACTER_COLOURS = { ryan: "#f08a5d", chloe: "#f9d56e", isaac: "#7ee0a8", charlotte: "#7cc6e8", vane: "#c9b8ff", timi: "#ff9ecd" };

  function characterName(view, id) {
    const c = list(view.characters).find((x) => isObj(x) && x.id === id);
    return c ? label(pick(c.name, c.id)) : label(id);
  }

  const CHAINSOMNIA = {
    seatName(view, seat) {
      const seats = list(view.seats);
      const ids = list(seats[seat]);
      return ids.length ? ids.map((id) => characterName(view, id)).join(" and ") : `seat ${Number(seat) + 1}`;
    },
    turn(view) {
      if (view.phase === "daemon") return { text: "The Daemon's turn", daemon: true };
      if (view.phase === "setup") return { text: "Setting up" };
      if (!has(view.turn)) return null;
      const c = list(view.characters).find((x) => isObj(x) && x.id === view.turn);
      const ap = c && has(c.ap) ? ` · ${c.ap} AP left` : "";
      return { text: `${characterName(view, view.turn)}'s turn${ap}` };
    },
    result(view) {
      if (view.result === "victory") return "The children escaped the Daemon's castle!";
      if (view.result === "defeat") return `Defeat${view.cause ? `: ${DEFEATS[view.cause] || label(view.cause)}` : ""}.`;
      return has(view.result) && view.result !== "" ? label(view.result) : null;
    },
    cards(view) {
      const characters = list(view.characters).filter(isObj);
      const out = [castleCard(view, characters)];
      if (characters.length) {
        out.push(h("section", { class: "card" }, h("h2", {}, "The children"),
          h("div", { class: "people" }, characters.map((c, i) => characterCard(view, c, i)))));
      }
      const decks = isObj(view.decks) ? view.decks : {};
      const facts = Object.entries(decks).filter(([, v]) => has(count(v))).map(([k, v]) => [`${words(k)} deck`, count(v)]);
      const howling = list(view.howling);
      const dreamsOut = list(isObj(view.discards) ? view.discards.bad_dreams : []);
      if (facts.length || howling.length) {
        out.push(h("section", { class: "card" }, h("h2", {}, "Decks and the Daemon"),
          h("div", { class: "stats" }, facts.map(([k, v]) => h("span", {}, `${k} `, h("b", {}, v)))),
          h("div", { class: "stats" },
            h("span", {}, "Howling ", h("b", {}, pick(view.howling_count, howling.length))),
            h("span", {}, "Bad Dreams defeated ", h("b", {}, dreamsOut.length))),
          howling.length ? h("p", { class: "small muted" }, `Each Event draw takes ${howling.length + 1} cards.`) : null));
      }
      return out;
    },
    private(view, seat) {
      const pending = isObj(view.pending) ? view.pending : null;
      if (pending && pending.seat === seat && Array.isArray(pending.cards)) {
        return [h("p", {}, `${label(pending.name)} looks at: `, h("strong", {}, pending.cards.map(label).join(", ")))];
      }
      return [];
    },
  };

  function castleCard(view, characters) {
    const tiles = list(pick(view.castle, view.tiles)).filter(isObj)
      .map((t) => ({ t, at: cell(pick(t.at, t.cell)) })).filter((x) => x.at);
    if (!tiles.length) return null;
    const size = 100;
    const pad = 8;
    const xs = tiles.map(({ at }) => at[0]);
    const ys = tiles.map(({ at }) => at[1]);
    const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
    const width = (maxX - minX + 1) * size + pad * 2;
    const height = (maxY - minY + 1) * size + pad * 2;
    // the engine's y grows north; the screen's grows down
    const place = ([x, y]) => [pad + (x - minX) * size, pad + (maxY - y) * size];
    const m = 6;
    const groups = tiles.map(({ t, at }) => {
      const [x, y] = place(at);
      const kind = String(pick(t.kind, t.tile, ""));
      const dreams = list(t.bad_dreams);
      const cls = ["tile", /wake/.test(kind) ? "wake" : "", kind === "chainsomnia" ? "start" : "", dreams.length ? "dreamt" : ""].join(" ");
      const colour = String(pick(t.door_colour, "none")).toLowerCase();
      const doors = sides(pick(t.door_sides, t.doors)).map((side) => {
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
      const name = label(pick(t.name, t.tile, ""));
      const parts = [
        s("rect", { class: cls, x: x + m, y: y + m, width: size - 2 * m, height: size - 2 * m, rx: 10 }),
        ...doors,
        s("text", { class: "tile-name", x: x + size / 2, y: y + 30 }, shorten(name, 12)),
        s("title", {}, name),
      ];
      if (dreams.length) {
        parts.push(s("rect", { class: "bd-badge", x: x + size - 50, y: y + size - 34, width: 38, height: 22, rx: 11 }));
        parts.push(s("text", { class: "bd-count", x: x + size - 31, y: y + size - 18 }, `☾ ${dreams.length}`));
        parts.push(s("title", {}, `${name}: Bad Dreams, top first: ${dreams.map(label).slice().reverse().join(", ")}`));
      }
      return s("g", { "data-tile": String(pick(t.tile, "")) }, parts);
    });
    const byCell = new Map();
    characters.forEach((c, i) => {
      const at = cell(pick(c.cell, c.at));
      if (!at) return;
      const key = at.join(",");
      if (!byCell.has(key)) byCell.set(key, []);
      byCell.get(key).push([c, i]);
    });
    const tokens = [];
    for (const [key, here] of byCell) {
      const [x, y] = place(key.split(",").map(Number));
      here.forEach(([c, i], k) => {
        const cx = x + 24 + (k % 3) * 24;
        const cy = y + 56 + Math.floor(k / 3) * 24;
        tokens.push(s("g", { "data-character": String(c.id) },
          s("circle", { class: `token-char${c.caged ? " caged" : ""}`, cx, cy, r: 11, fill: CHARACTER_COLOURS[c.id] || PALETTE[i % PALETTE.length] }),
          s("text", { class: "token-letter", x: cx, y: cy + 4.5 }, label(pick(c.name, c.id)).charAt(0)),
          s("title", {}, `${label(pick(c.name, c.id))} (${label(c.room || "")})`)));
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

  function characterCard(view, c, i) {
    const name = label(pick(c.name, c.id));
    const chains = Number(pick(c.chains, 0));
    const gauge = list(c.chain_gauge);
    const current = view.phase === "players" && view.turn === c.id;
    const items = list(c.items);
    const omens = list(c.omens);
    const inArea = list(c.bad_dreams);
    const attrs = isObj(c.attributes) ? c.attributes : null;
    const player = view.seats ? CHAINSOMNIA.seatName(view, c.seat) : null;
    return h("article", { class: `person${current ? " current" : ""}${c.caged ? " caged" : ""}`, "data-character": String(c.id) },
      h("header", {},
        h("span", { class: "swatch", style: `background: ${CHARACTER_COLOURS[c.id] || PALETTE[i % PALETTE.length]}` }),
        h("div", {}, h("div", { class: "who" }, name),
          h("div", { class: "sub" }, [label(c.room || ""), c.trapped ? "trapped by a Bad Dream" : "", has(c.seat) && player !== name ? `seat ${c.seat + 1}` : ""].filter(Boolean).join(" · ")))),
      gauge.length
        ? h("div", { class: "gauge", role: "img", "aria-label": `${chains} chain tokens; ${chains < gauge.length ? `${gauge[chains]} AP next turn` : "in a Cage"}` },
          gauge.map((n, k) => h("span", { class: k < chains ? "on" : k === chains ? "next" : "" }, k < chains ? "" : String(n))))
        : null,
      h("div", { class: "stats" },
        h("span", {}, "Chains ", h("b", {}, `${chains}/${gauge.length || 6}`)),
        has(c.ap) ? h("span", {}, "AP ", h("b", {}, c.ap)) : null,
        c.caged ? h("span", {}, h("b", {}, "In a Cage")) : null,
        attrs ? [["strength", "Str"], ["intelligence", "Int"], ["luck", "Luck"]].filter(([k]) => has(attrs[k])).map(([k, short]) => h("span", {}, `${short} `, h("b", {}, attrs[k]))) : null),
      items.length || omens.length || inArea.length
        ? h("div", { class: "chips" },
          chips(items, (it) => (it.type === "equipable" ? "equip" : "")),
          chips(inArea, () => "bad"),
          chips(omens, (ev) => (/bad/.test(String(ev.kind)) ? "bad" : /good/.test(String(ev.kind)) ? "good" : "")))
        : null);
  }

  // -- Somnicum ------------------------------------------------------------------------------

  function storyline(card) {
    if (!isObj(card)) return "unknown";
    if (card.nightmare) return "nightmare";
    const story = String(pick(card.storyline, "")).toLowerCase();
    if (/fairy/.test(story)) return "fairy";
    if (/under|water|sea/.test(story)) return "underwater";
    if (/space/.test(story)) return "space";
    return "unknown";
  }

  function starsOf(card) {
    if (!isObj(card) || !has(card.stars)) return "";
    return `${card.nightmare ? "−" : ""}${card.stars}★`;
  }

  function cardTitle(card) {
    if (!isObj(card)) return label(card);
    const parts = list(card.particles).map(label).join(", ");
    const tokens = list(card.tokens);
    return `${label(card.name)}${parts ? ` (${parts})` : ""}${tokens.length ? ` + tokens: ${tokens.map(label).join(", ")}` : ""}${card.meeting ? " · meeting" : ""}`;
  }

  const SOMNICUM = {
    seatName(view, seat) {
      const p = list(view.players)[seat];
      return isObj(p) && has(p.name) ? label(p.name) : `seat ${Number(seat) + 1}`;
    },
    turn(view) {
      const pending = isObj(view.pending) ? view.pending : {};
      const who = pick(pending.player, has(view.turn) ? SOMNICUM.seatName(view, view.turn) : undefined);
      if (pending.chance && !has(pending.player)) return { text: "Setting up" };
      return who ? { text: `${label(who)}'s turn` } : null;
    },
    result(view) {
      const result = isObj(view.result) ? view.result : null;
      if (!result) return null;
      const winners = list(result.winners).map(label);
      if (!winners.length) return "The game is over.";
      return winners.length === 1 ? `${winners[0]} wins!` : `${winners.join(" and ")} share the victory!`;
    },
    cards(view, over) {
      const players = list(view.players).filter(isObj);
      const out = [fieldCard(view)];
      if (players.length) {
        out.push(h("section", { class: "card" }, h("h2", {}, "Dreams"),
          h("div", { class: "people" }, players.map((p, i) => dreamCard(view, p, i)))));
        out.push(scoresCard(view, players, over));
      }
      return out;
    },
    private(view, seat) {
      const me = list(view.players)[seat];
      if (!isObj(me)) return [];
      const out = [];
      if (isObj(me.goal)) out.push(h("p", {}, "Your Goal card: ", h("strong", { class: "goal" }, list(me.goal.particles).map(label).join(" · "))));
      else out.push(h("p", { class: "muted" }, "Your Goal card is not entered yet."));
      const faces = list(me.token_faces);
      const tally = new Map();
      faces.forEach((f) => { const k = label(pick(f.particle, f)); tally.set(k, (tally.get(k) || 0) + 1); });
      out.push(h("p", {}, "Your Sleep Sand tokens: ",
        faces.length ? h("strong", {}, [...tally].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(", ")) : "none"));
      const hand = list(me.hand);
      if (hand.length) out.push(h("p", {}, "Meeting cards in your hand: ", h("strong", {}, hand.map(label).join(", "))));
      if (isObj(me.score) && has(me.score.total)) out.push(h("p", {}, "Your score with your Goal card: ", h("strong", {}, `${me.score.total} VP`)));
      return out;
    },
  };

  function fieldCard(view) {
    const cards = list(view.field);
    if (!cards.length) return null;
    const n = cards.length;
    const R = 118, C = 150;
    const slots = cards.map((card, i) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      const x = C + R * Math.cos(a), y = C + R * Math.sin(a);
      return s("g", { "data-card": isObj(card) ? String(pick(card.id, i)) : String(i) },
        s("rect", { class: `fcard ${storyline(card)}`, x: x - 13, y: y - 18, width: 26, height: 36, rx: 4,
          transform: `rotate(${(360 * i) / n} ${x} ${y})` }),
        s("text", { class: "fcard-text", x, y: y + 4 }, starsOf(card)),
        s("title", {}, cardTitle(card)));
    });
    const wheels = isObj(view.flywheels) ? Object.entries(view.flywheels) : [];
    const marks = wheels.map(([name, at]) => {
      const gap = Number(isObj(at) ? at.gap : at);
      if (!has(isObj(at) ? at.gap : at) || !Number.isFinite(gap)) return null;
      const a = (2 * Math.PI * (gap - 0.5)) / n - Math.PI / 2; // between card gap-1 and card gap
      const x = C + (R - 38) * Math.cos(a), y = C + (R - 38) * Math.sin(a);
      const black = /black/.test(name);
      const line = s("line", { class: "flywheel-arm", x1: x, y1: y, x2: C + (R - 16) * Math.cos(a), y2: C + (R - 16) * Math.sin(a) });
      const between = isObj(at) ? list(at.between).map(label) : [];
      return s("g", { "data-flywheel": name, "data-gap": String(gap) }, line,
        s("circle", { class: `flywheel${black ? " black" : " white"}`, cx: x, cy: y, r: 11 }),
        s("text", { class: `flywheel-letter${black ? " black" : ""}`, x, y: y + 4.5 }, black ? "B" : "W"),
        s("title", {}, `${words(name)} flywheel${between.length === 2 ? ` between ${between[0]} and ${between[1]}` : ""}`));
    });
    const turn = isObj(view.this_turn) ? view.this_turn : {};
    return h("section", { class: "card field" }, h("h2", {}, "The field"),
      s("svg", { viewBox: "0 0 300 300", role: "img", "aria-label": `The field: ${n} Dream cards` },
        slots, marks,
        s("text", { class: "field-count", x: C, y: C - 4 }, `${n}`),
        s("text", { class: "field-sub", x: C, y: C + 16 }, n === 1 ? "card" : "cards")),
      h("div", { class: "legend" },
        h("span", {}, h("i", { class: "fairy" }), "Fairy Tale"),
        h("span", {}, h("i", { class: "underwater" }), "Underwater World"),
        h("span", {}, h("i", { class: "space" }), "Space"),
        h("span", {}, h("i", { class: "nightmare" }), "Nightmare"),
        h("span", {}, h("i", { class: "gapmark" }), "gap"),
        h("span", {}, "✦ Meeting"),
        h("span", {}, h("i", { class: "wheel black" }), "black flywheel"),
        h("span", {}, h("i", { class: "wheel white" }), "white flywheel")),
      h("div", { class: "stats" },
        has(view.bag) ? h("span", {}, "Bag ", h("b", {}, view.bag)) : null,
        has(view.meeting_deck) ? h("span", {}, "Meeting deck ", h("b", {}, view.meeting_deck)) : null,
        turn.moved ? h("span", {}, `${words(turn.moved)} flywheel `, h("b", {}, `${turn.steps} step${turn.steps === 1 ? "" : "s"}`)) : null));
  }

  function dreamCard(view, p, i) {
    const name = label(pick(p.name, `Player ${i + 1}`));
    const levels = list(p.dream);
    // an inverted pyramid: each card below sits under the pair it was attached to
    const columns = new Map(); // "level:index" -> half-card column
    const rows = levels.map((level, depth) => {
      const cards = list(isObj(level) ? level.cards : level);
      const gaps = isObj(level) ? list(level.gaps) : [];
      const row = [];
      cards.forEach((card, k) => {
        const under = isObj(card) ? card.under : null;
        const col = depth === 0 || !has(under) ? 2 * k + depth : (columns.get(`${depth - 1}:${under}`) ?? 2 * k) + 1;
        columns.set(`${depth}:${k}`, col);
        const gapAfter = k < cards.length - 1 && gaps[k];
        row.push(h("span", {
          class: `dcard ${storyline(card)}${gapAfter ? " gap-after" : ""}`,
          "data-card": isObj(card) ? String(pick(card.id, "")) : "",
          title: cardTitle(card) + (gapAfter ? " · a gap on its right" : ""),
          style: `grid-column: ${col + 1} / span 2; grid-row: ${depth + 1}`,
        }, starsOf(card) || "·", isObj(card) && card.meeting ? h("i", { class: "meet" }, "✦") : null,
        list(card.tokens).length ? h("i", { class: "tok" }, "•") : null));
      });
      return row;
    });
    const tokens = count(p.tokens);
    const blanks = isObj(p.backs) ? Number(p.backs.blank) || 0 : 0; // a token's back shows, its face does not
    const meetings = count(pick(p.meetings_in_hand, p.hand));
    const width = Math.max(2, ...[...columns.values()].map((col) => col + 2));
    const played = list(p.in_front);
    const score = isObj(p.score) ? p.score : null;
    return h("article", { class: `person${p.to_act ? " current" : ""}`, "data-seat": String(pick(p.seat, i)) },
      h("header", {},
        h("span", { class: "swatch", style: `background: ${PALETTE[i % PALETTE.length]}` }),
        h("div", {}, h("div", { class: "who" }, name), p.first_player ? h("div", { class: "sub" }, "first player") : null)),
      rows.flat().length
        ? h("div", { class: "dream", style: `grid-template-columns: repeat(${width}, minmax(0, 1.2rem))` }, rows.flat())
        : h("p", { class: "muted small" }, "No Dream card yet."),
      h("div", { class: "stats" },
        score ? h("span", { "data-stat": "vp" }, "VP ", h("b", {}, score.total)) : null,
        has(tokens) ? h("span", { "data-stat": "tokens" }, "Sleep Sand ", h("b", {}, tokens), blanks ? ` (${blanks} blank back${blanks === 1 ? "" : "s"})` : "") : null,
        has(meetings) ? h("span", { "data-stat": "meetings" }, "Meeting cards ", h("b", {}, meetings)) : null),
      played.length ? h("div", { class: "chips" }, chips(played, () => "good")) : null);
  }

  function scoresCard(view, players, over) {
    const final = isObj(view.result) ? list(view.result.players) : [];
    const rows = players.map((p, i) => {
      const done = final.find((f) => f.name === p.name);
      const score = isObj(p.score) ? p.score : {};
      const total = done ? done.total : score.total;
      const goal = done && isObj(done.breakdown) ? done.breakdown.goal : isObj(score.breakdown) ? score.breakdown.goal : null;
      const parts = done && isObj(done.breakdown) ? breakdown(done.breakdown) : "";
      return h("tr", { "data-seat": String(pick(p.seat, i)) },
        h("td", {}, label(pick(p.name, `Player ${i + 1}`)), parts ? h("div", { class: "muted small" }, parts) : null),
        h("td", { "data-score": "goal" }, has(goal) ? goal : "?"),
        h("td", { "data-score": "total" }, h("b", {}, has(total) ? total : "–")));
    });
    const tieBreak = over && isObj(view.result) && view.result.tie_break ? String(view.result.tie_break) : "";
    return h("section", { class: "card scores-card" }, h("h2", {}, over ? "Final scores" : "Scores so far"),
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Goal"), h("th", {}, "VP"))),
        h("tbody", {}, rows)),
      tieBreak ? h("p", { class: "small" }, tieBreak) : null,
      over ? null : h("p", { class: "muted small" }, "Goal card points stay secret until the game ends."));
  }

  // The scoring code's breakdown keys, in the order the rulebook counts them.
  const BREAKDOWN = [["level1", "level 1"], ["level2", "level 2"], ["level3", "level 3"], ["isolated", "edge cards"],
    ["meetings", "Meeting"], ["goal", "Goal"], ["nightmares", "Nightmares"]];

  function breakdown(parts) {
    return BREAKDOWN.filter(([key]) => has(parts[key]) && parts[key] !== 0)
      .map(([key, name]) => `${name} ${parts[key]}`).join(" · ");
  }

  // -- a seat's own page ---------------------------------------------------------------------

  function privateCard(message, view, game) {
    const actions = Array.isArray(message.actions) ? message.actions : [];
    const parts = [h("h2", {}, "Only for you"), ...game.private(view, message.seat)];
    if (actions.length) {
      parts.push(h("p", {}, "Only you see these choices. The table learns only what the rules show everyone."));
      if (chosen !== null && actions.some((a) => JSON.stringify(a) === JSON.stringify(chosen))) {
        parts.push(h("div", { class: "choices" },
          h("button", { type: "button", class: "confirm", on: { click: () => send(chosen) } }, `Send: ${actionLabel(chosen)}`),
          h("button", { type: "button", on: { click: () => { chosen = null; render(current); } } }, "Choose again")));
      } else {
        // one group per kind of choice, in the order the rules list them
        const groups = new Map();
        for (const action of actions) {
          if (!groups.has(action.type)) groups.set(action.type, []);
          groups.get(action.type).push(action);
        }
        for (const [type, group] of groups) {
          parts.push(h("h3", { class: "choice-head" }, CHOICE_HEADS[type] || words(type)));
          parts.push(h("div", { class: "choices", "data-type": type }, group.map((action) =>
            h("button", { type: "button", on: { click: () => { chosen = action; notice = null; render(current); } } }, actionLabel(action)))));
        }
      }
    }
    if (notice) parts.push(h("p", { class: `notice ${notice.good ? "good" : "bad"}` }, notice.text));
    if (parts.length === 1) parts.push(h("p", { class: "muted" }, "Nothing secret to show right now."));
    return h("section", { class: "card wide private" }, parts);
  }

  // What each private choice is, above its buttons (Somnicum's; another game's fall back to words).
  const CHOICE_HEADS = {
    enter_goal: "Your secret Goal card: which is it?",
    draw_token: "The Sleep Sand token you drew: which is it?",
    draw_meeting: "The Meeting card you drew: which is it?",
    keep_meeting: "Keep one Meeting card (the others go face up beside the deck)",
    pay_token: "Pay a token for a step beyond the free ones",
    add_particle: "Add a particle to your dream (before moving a flywheel)",
    play_meeting: "Play a Meeting card",
  };

  function actionLabel(action) {
    return label(pick(action.label, action.goal, action.card, action.choice, action.type));
  }

  async function send(action) {
    chosen = null;
    notice = { text: "Sending…", good: true };
    render(current);
    const { label: _shown, ...plain } = action; // the label is the mirror's, not the game's
    try {
      const reply = await fetch(actionPath, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(plain),
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
