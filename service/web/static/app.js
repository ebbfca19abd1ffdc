// The preferans-dd page: a deal in, its table, then card-by-card play with each
// legal card's double-dummy value. Every answer comes from the JSON API
// (/api/v1/analyze, /api/v1/position, /api/v1/score, /api/v1/whist, /api/v1/bid);
// the page itself knows no rule of the game. The deal and the cards played
// live in the address (#deal=...&contract=...&declarer=...&discard=...&played=...).

const SUITS = ["s", "c", "d", "h"];
const SYMBOL = { s: "♠", c: "♣", d: "♦", h: "♥", nt: "NT" };
const SEATS = ["first hand", "second hand", "third hand"];
const PLAYERS = ["A", "B", "C"];

const $ = (id) => document.getElementById(id);
const state = { deal: null, table: null, contract: null, declarer: null, discard: null, played: [], redo: [],
                position: null };

// ---- the API -------------------------------------------------------------------

async function api(name, body) {
  const headers = { "content-type": "application/json" };
  const token = $("token").value;
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`/api/v1/${name}`, { method: "POST", headers, body: JSON.stringify(body) });
  let answer;
  try {
    answer = await response.json();
  } catch {
    throw new Error(`the server answered ${response.status} without JSON`);
  }
  if (response.status === 401) document.querySelector(".token").hidden = false;
  if (!response.ok) throw new Error(answer.error || `the server answered ${response.status}`);
  return answer;
}

function showError(id, error) {
  const box = $(id);
  box.textContent = error ? String(error.message || error) : "";
  box.hidden = !error;
}

// ---- cards and hands -----------------------------------------------------------

function rankText(rank) { return rank === "T" ? "10" : rank; }

function handCards(dotted) {
  // "AQ7.K98.KT.QJ" -> [["As", "Qs", "7s"], ...] by suit (spades, clubs, diamonds, hearts).
  const groups = (dotted || "...").split(".");
  return SUITS.map((suit, i) => [...(groups[i] || "")].map((rank) => rank + suit));
}

function cardElement(card, options = {}) {
  const element = document.createElement(options.button ? "button" : "span");
  element.className = `card suit-${card[1]}`;
  element.dataset.card = card;
  element.textContent = rankText(card[0]);
  if (options.button) element.type = "button";
  if (options.value !== undefined) {
    const badge = document.createElement("small");
    badge.className = "value";
    badge.textContent = options.value;
    element.append(badge);
  }
  if (options.best) element.classList.add("best");
  return element;
}

function cardLabel(card) { return SYMBOL[card[1]] + rankText(card[0]); }

function handElement(seat, dotted, values, best, toMove) {
  const box = document.createElement("div");
  box.className = `hand seat-${seat}` + (seat === toMove ? " to-move" : "");
  const title = document.createElement("div");
  title.className = "seat-name";
  title.textContent = SEATS[seat] + (seat === state.declarer ? " (declarer)" : "") + (seat === toMove ? " — to play" : "");
  box.append(title);
  handCards(dotted).forEach((cards, i) => {
    const line = document.createElement("div");
    line.className = `suit-line suit-${SUITS[i]}`;
    line.append(Object.assign(document.createElement("span"), { className: "symbol", textContent: SYMBOL[SUITS[i]] }));
    if (!cards.length) line.append(Object.assign(document.createElement("span"), { textContent: "—" }));
    for (const card of cards) {
      const legal = values && card in values;
      const element = cardElement(card, { button: legal, value: legal ? values[card] : undefined,
                                          best: legal && best.has(card) });
      if (legal) element.addEventListener("click", () => play(card));
      line.append(element);
    }
    box.append(line);
  });
  return box;
}

function centre(label, cards) {
  const box = document.createElement("div");
  box.className = "centre";
  box.append(Object.assign(document.createElement("div"), { className: "seat-name", textContent: label }));
  const row = document.createElement("div");
  for (const card of cards) row.append(cardElement(card));
  box.append(row);
  return box;
}

function renderDiagram(hands, middle, values, best, toMove) {
  const diagram = $("diagram");
  diagram.replaceChildren(
    handElement(1, hands[1], values, best, toMove),
    handElement(0, hands[0], values, best, toMove),
    middle,
    handElement(2, hands[2], values, best, toMove));
}

function talonCards(dotted) { return handCards(dotted).flat(); }

// ---- the address ---------------------------------------------------------------

function writeAddress() {
  const params = new URLSearchParams();
  if (state.deal) params.set("deal", state.deal);
  if (state.contract) params.set("contract", state.contract);
  if (state.declarer !== null) params.set("declarer", state.declarer);
  if (state.discard) params.set("discard", state.discard);
  if (state.played.length) params.set("played", state.played.join(","));
  history.replaceState(null, "", "#" + params.toString());
}

function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  const declarer = params.get("declarer");
  return { deal: params.get("deal"), contract: params.get("contract"),
           declarer: declarer === null ? null : Number(declarer), discard: params.get("discard"),
           played: (params.get("played") || "").split(",").filter(Boolean) };
}

// ---- the deal and its table ----------------------------------------------------

async function analyzeDeal(text) {
  showError("deal-error", null);
  let answer;
  try {
    answer = await api("analyze", { deal: text });
  } catch (error) {
    showError("deal-error", error);
    return false;
  }
  Object.assign(state, { deal: answer.deal, table: answer.table || null, contract: null, declarer: null,
                         discard: null, played: [], redo: [], position: null });
  $("deal-input").value = answer.deal;
  renderTable(answer);
  $("deal-panel").hidden = false;
  showStart();
  writeAddress();
  return true;
}

function showStart() {
  const parts = state.deal.split(" ");
  const talon = parts[3] ? talonCards(parts[3]) : [];
  renderDiagram(parts.slice(0, 3), centre("talon", talon), null, new Set(), null);
  $("status").textContent = "Choose a contract in the table, or play all-pass.";
  for (const id of ["undo", "redo", "show-line"]) $(id).disabled = true;
  for (const id of ["mistakes-panel", "score-panel", "line"]) $(id).hidden = true;
}

function renderTable(answer) {
  const table = $("deal-table");
  table.replaceChildren();
  $("table-panel").hidden = !answer.table;
  const values = answer.allpass ? answer.allpass.player_tricks : null;
  $("allpass-values").textContent = values
    ? "All-pass: each number is the fewest tricks that player can be sure of against the worst play of the "
      + "other two, so they need not add up to 10: " + values.map((n, s) => `${SEATS[s]} ${n}`).join(", ") + "."
    : "";
  if (!answer.table) return;
  const head = table.insertRow();
  for (const label of ["declarer", ...answer.table.strains.map((s) => SYMBOL[s]), "misère", "best contract"]) {
    head.append(Object.assign(document.createElement("th"), { textContent: label }));
  }
  for (const row of answer.table.rows) {
    const line = table.insertRow();
    line.append(Object.assign(document.createElement("th"), { textContent: SEATS[row.seat] }));
    row.tricks.forEach((tricks, i) => {
      const strain = answer.table.strains[i];
      const level = Math.max(6, Math.min(10, tricks));
      line.insertCell().append(tableButton(tricks, row.seat, `${level}${strain}`, row.discards[i],
                                           `${level}${SYMBOL[strain]} by ${SEATS[row.seat]}`));
    });
    line.insertCell().append(tableButton(row.misere, row.seat, "misere", row.misere_discard,
                                         `misère by ${SEATS[row.seat]}`));
    line.insertCell().textContent = row.best_contract || "—";
  }
}

function tableButton(value, seat, contract, discard, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "cell";
  button.textContent = value;
  button.title = `play ${title}, discarding ${discard}`;
  Object.assign(button.dataset, { seat, contract, discard });
  button.addEventListener("click", () => startContract(contract, seat, discard));
  return button;
}

// ---- play ----------------------------------------------------------------------

function startContract(contract, declarer, discard) {
  Object.assign(state, { contract, declarer: contract === "allpass" ? null : Number(declarer),
                         discard: discard || null, played: [], redo: [] });
  return refresh();
}

function play(card) {
  state.played.push(card);
  state.redo = [];
  return refresh();
}

function undo() {
  if (!state.played.length) return;
  state.redo.push(state.played.pop());
  return refresh();
}

function redo() {
  if (!state.redo.length) return;
  state.played.push(state.redo.pop());
  return refresh();
}

function request(extra = {}) {
  const body = { deal: state.deal, contract: state.contract, played: state.played, ...extra };
  if (state.declarer !== null) body.declarer = state.declarer;
  if (state.discard) body.discard = state.discard;
  return body;
}

async function refresh() {
  writeAddress();
  showError("play-error", null);
  $("line").hidden = true;
  let position;
  try {
    position = await api("position", request());
  } catch (error) {
    showError("play-error", error);
    return;
  }
  state.position = position;
  const values = position.card_values || null;
  const best = new Set(values ? Object.keys(values).filter((c) => values[c] === position.value) : []);
  const trick = position.trick.length ? position.trick : [];
  const label = position.talon_lead ? `talon lead ${cardLabel(position.talon_lead)}` : "trick";
  renderDiagram(position.hands, centre(label, trick), values, best, position.over ? null : position.to_move);
  $("status").textContent = statusText(position);
  $("show-line").disabled = position.over;
  $("undo").disabled = !state.played.length;
  $("redo").disabled = !state.redo.length;
  await showMistakes();
  $("score-panel").hidden = !position.over;
  $("score-result").textContent = "";
}

function contractText(contract) {
  if (contract === "allpass") return "all-pass";
  if (contract === "misere") return "misère";
  const match = contract.match(/^(\d+)(nt|[scdh])$/);
  return match ? match[1] + SYMBOL[match[2]] : contract;
}

function statusText(position) {
  const taken = position.tricks_taken.map((n, s) => `${SEATS[s]} ${n}`).join(", ");
  const who = position.declarer === null ? "" : ` by ${SEATS[position.declarer]}`;
  const head = `${contractText(position.contract)}${who}${position.discard ? `, discard ${position.discard}` : ""}. `
    + `Tricks: ${taken}.`;
  if (position.over) return head + " The play is over.";
  const counted = position.contract === "allpass"
    ? `the fewest tricks ${SEATS[position.counted_seat]} can be sure of`
    : "the declarer's tricks";
  return `${head} ${SEATS[position.to_move]} to play; value ${position.value} (${counted}); `
    + "each card shows the value after it, the best cards are marked.";
}

async function showMistakes() {
  const panel = $("mistakes-panel");
  const list = $("mistakes");
  list.replaceChildren();
  if (!state.played.length) {
    panel.hidden = true;
    return;
  }
  try {
    const answer = await api("analyze", request({ played: state.played.join(" ") }));
    for (const mistake of answer.play.mistakes) list.append(Object.assign(document.createElement("li"),
                                                                          { textContent: mistake }));
  } catch (error) {
    showError("play-error", error);
  }
  panel.hidden = !list.children.length;
}

async function showLine() {
  if (!state.contract) return;
  try {
    const answer = await api("position", request({ best_line: true }));
    const line = answer.best_line || [];
    $("line").textContent = line.length ? "Best line: " + line.map(cardLabel).join(" ") : "The play is over.";
    $("line").hidden = false;
  } catch (error) {
    showError("play-error", error);
  }
}

async function score() {
  const position = state.position;
  if (!position || !position.over) return;
  const tricks = Object.fromEntries(PLAYERS.map((name, s) => [name, position.tricks_taken[s]]));
  let input;
  if (position.contract === "allpass") {
    input = { type: "allpass", players: PLAYERS, tricks };
  } else if (position.contract === "misere") {
    input = { type: "misere", players: PLAYERS, declarer: PLAYERS[position.declarer], tricks };
  } else {
    const defenders = [1, 2].map((k) => PLAYERS[(position.declarer + k) % 3]);
    input = { type: "contract", players: PLAYERS, declarer: PLAYERS[position.declarer], contract: position.contract,
              defenders, decisions: { [defenders[0]]: $("decision-0").value, [defenders[1]]: $("decision-1").value },
              tricks };
  }
  try {
    const answer = await api("score", { convention: $("convention").value, kind: "deal", input });
    $("score-result").textContent = "Value of the deal in whists: " + PLAYERS.map(
      (name, s) => `${SEATS[s]} ${answer.deal_value[name]}`).join(", ");
  } catch (error) {
    $("score-result").textContent = String(error.message);
  }
}

// ---- advice and its charts -----------------------------------------------------

function formBody(form, numbers) {
  const body = {};
  for (const [key, value] of new FormData(form)) {
    if (value === "") continue;
    body[key] = numbers.includes(key) ? Number(value) : value;
  }
  return body;
}

const SVG = "http://www.w3.org/2000/svg";

function svgElement(name, attributes, text) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

function errorBarChart(rows) {
  // rows: [{label, mean, error}] -> horizontal bars with ±2 standard errors.
  const width = 420, rowHeight = 26, left = 110, height = rows.length * rowHeight + 24;
  const extent = Math.max(1, ...rows.map((r) => Math.abs(r.mean) + 2 * r.error));
  const x = (v) => left + (v + extent) / (2 * extent) * (width - left - 10);
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  svg.append(svgElement("line", { x1: x(0), x2: x(0), y1: 0, y2: height - 20, class: "axis" }));
  rows.forEach((row, i) => {
    const y = i * rowHeight + 6;
    svg.append(svgElement("text", { x: 4, y: y + 13, class: "label" }, row.label));
    svg.append(svgElement("rect", { x: Math.min(x(0), x(row.mean)), y, width: Math.abs(x(row.mean) - x(0)),
                                    height: 16, class: row.mean >= 0 ? "bar good" : "bar bad" }));
    svg.append(svgElement("line", { x1: x(row.mean - 2 * row.error), x2: x(row.mean + 2 * row.error),
                                    y1: y + 8, y2: y + 8, class: "error-bar" }));
  });
  svg.append(svgElement("text", { x: x(0), y: height - 4, class: "label", "text-anchor": "middle" }, "0 whists"));
  return svg;
}

function distributionChart(distribution, title) {
  const entries = Object.entries(distribution || {}).map(([k, p]) => [Number(k), p]).sort((a, b) => a[0] - b[0]);
  const width = 420, height = 140, bottom = 120, step = (width - 20) / Math.max(entries.length, 1);
  const top = Math.max(0.01, ...entries.map((e) => e[1]));
  const svg = svgElement("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  svg.append(svgElement("title", {}, title));
  entries.forEach(([tricks, p], i) => {
    const h = p / top * (bottom - 20);
    svg.append(svgElement("rect", { x: 10 + i * step + 2, y: bottom - h, width: step - 4, height: h, class: "bar" }));
    svg.append(svgElement("text", { x: 10 + i * step + step / 2, y: bottom + 14, class: "label",
                                    "text-anchor": "middle" }, tricks));
    svg.append(svgElement("text", { x: 10 + i * step + step / 2, y: bottom - h - 3, class: "label small",
                                    "text-anchor": "middle" }, `${Math.round(p * 100)}%`));
  });
  return svg;
}

function estimate(value) { return `${value.mean.toFixed(2)} ± ${value.std_error.toFixed(2)}`; }

async function adviseWhist(event) {
  event.preventDefault();
  showError("whist-error", null);
  const box = $("whist-result");
  box.textContent = "Working…";
  try {
    const answer = await api("whist", formBody(event.target, ["declarer", "seat", "layouts"]));
    box.replaceChildren(
      Object.assign(document.createElement("p"), { className: "recommended",
        textContent: `Recommended: ${answer.recommended} (sure ${Math.round(answer.sureness * 100)}%)` }),
      errorBarChart(answer.options.map((o) => ({ label: o.action, mean: o.value.mean, error: o.value.std_error }))),
      Object.assign(document.createElement("p"), {
        textContent: answer.options.map((o) => `${o.action}: ${estimate(o.value)} whists`).join("; ") }),
      Object.assign(document.createElement("h4"), { textContent: "The declarer's tricks" }),
      distributionChart(answer.declarer_tricks, "the declarer's tricks"),
      Object.assign(document.createElement("p"), { className: "hint",
        textContent: `${answer.run.layouts} layouts${answer.run.exact ? " (all of them)" : " sampled"}` }));
  } catch (error) {
    box.textContent = "";
    showError("whist-error", error);
  }
}

async function adviseBid(event) {
  event.preventDefault();
  showError("bid-error", null);
  const box = $("bid-result");
  box.textContent = "Working…";
  try {
    const answer = await api("bid", formBody(event.target, ["seat", "layouts"]));
    const rows = answer.contracts.map((c) => ({ label: contractText(c.contract), mean: c.value.mean,
                                                error: c.value.std_error }));
    const best = answer.recommended;
    box.replaceChildren(
      Object.assign(document.createElement("p"), { className: "recommended",
        textContent: `Recommended: ${contractText(best.contract)}, makes ${Math.round(best.make_probability.mean * 100)}%` }),
      errorBarChart(rows),
      Object.assign(document.createElement("h4"), { textContent: `Tricks in ${contractText(best.contract)}` }),
      distributionChart(best.tricks, "tricks"));
  } catch (error) {
    box.textContent = "";
    showError("bid-error", error);
  }
}

// ---- start ---------------------------------------------------------------------

async function readRecordFile(event) {
  const file = event.target.files[0];
  if (!file) return;
  const bytes = await file.arrayBuffer();
  let text;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("windows-1251").decode(bytes);  // old .pts/.bts problem files
  }
  $("deal-input").value = text.trim();
  await analyzeDeal($("deal-input").value);
}

function onKey(event) {
  if (event.target.closest("input, textarea, select")) return;
  if (event.key === "ArrowLeft") { event.preventDefault(); undo(); }
  if (event.key === "ArrowRight") { event.preventDefault(); redo(); }
}

async function start() {
  $("analyze").addEventListener("click", () => analyzeDeal($("deal-input").value));
  $("record-file").addEventListener("change", readRecordFile);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("show-line").addEventListener("click", showLine);
  $("allpass").addEventListener("click", () => startContract("allpass", null, null));
  $("score").addEventListener("click", score);
  $("whist-form").addEventListener("submit", adviseWhist);
  $("bid-form").addEventListener("submit", adviseBid);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", restore);  // a pasted link; the page's own writes fire none
  await restore();
  document.body.dataset.ready = "true";
}

async function restore() {
  const saved = readAddress();
  if (saved.deal && await analyzeDeal(saved.deal) && saved.contract) {
    Object.assign(state, { contract: saved.contract, declarer: saved.declarer, discard: saved.discard,
                           played: saved.played, redo: [] });
    await refresh();
  }
}

start();
