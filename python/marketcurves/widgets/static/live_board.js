// LiveBoard's front end: a table, a row per curve and tenor, each row
// flashing when its value changes. Nothing loaded from the network.
const COLUMNS = ["curve", "tenor", "last", "change", "time (UTC)", "ticks"];

function when(millis) {
  return millis ? new Date(millis).toISOString().replace("T", " ").slice(0, 23) : "";
}

function number(value, digits = 3) {
  return value.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "mc-live mc-live-board";
  const head = document.createElement("div");
  head.className = "mc-live-head";
  const title = document.createElement("div");
  title.className = "mc-live-title";
  title.textContent = "Live board";
  const state = document.createElement("span");
  state.className = "mc-live-state";
  head.append(title, state);
  const sub = document.createElement("div");
  sub.className = "mc-live-sub";
  const table = document.createElement("table");
  table.className = "mc-live-table";
  const header = table.createTHead().insertRow();
  for (const name of COLUMNS) {
    const cell = document.createElement("th");
    cell.textContent = name;
    header.appendChild(cell);
  }
  const body = table.createTBody();
  root.append(head, sub, table);
  el.appendChild(root);
  // The row of each curve and tenor, and the ticks it last showed.
  const shown = new Map();

  function draw() {
    const st = model.get("state");
    state.textContent = st;
    state.dataset.state = st.startsWith("stopped") ? "stopped" : st;
    root.classList.toggle("mc-live-ended", !["waiting", "live"].includes(st));
    const rows = model.get("rows");
    sub.textContent = rows.length
      ? `${rows.length} tenors · ${model.get("ticks").toLocaleString()} ticks`
      : "waiting for the feed's first values";
    const order = [];
    for (const row of rows) {
      const key = `${row.curve_id}\u0000${row.tenor}`;
      let entry = shown.get(key);
      if (!entry) {
        const tr = document.createElement("tr");
        tr.className = "mc-live-row";
        tr.dataset.curve = row.curve_id;
        tr.dataset.tenor = row.tenor;
        for (let i = 0; i < COLUMNS.length; i++) tr.insertCell();
        entry = { tr, ticks: -1 };
        shown.set(key, entry);
      }
      if (entry.ticks !== row.ticks) {
        const cells = entry.tr.cells;
        cells[0].textContent = row.curve;
        cells[0].title = `${row.curve_id}${row.units ? " · " + row.units : ""}`;
        cells[1].textContent = row.tenor;
        cells[2].textContent = number(row.price);
        cells[3].textContent = (row.change > 0 ? "+" : "") + number(row.change);
        cells[3].className = row.change > 0 ? "mc-live-up" : row.change < 0 ? "mc-live-down" : "";
        cells[4].textContent = when(row.time);
        cells[5].textContent = row.ticks.toLocaleString();
        entry.tr.dataset.price = row.price;
        if (entry.ticks >= 0) {
          // Restart the flash: the class off, a reflow, the class on.
          entry.tr.classList.remove("mc-live-flash");
          void entry.tr.offsetWidth;
          entry.tr.classList.add("mc-live-flash");
        }
        entry.ticks = row.ticks;
      }
      order.push(entry.tr);
    }
    // Rows in the model's order; a row gone from it goes.
    const keep = new Set(order);
    for (const [key, entry] of shown) if (!keep.has(entry.tr)) { entry.tr.remove(); shown.delete(key); }
    order.forEach((tr, i) => { if (body.rows[i] !== tr) body.insertBefore(tr, body.rows[i] || null); });
  }

  draw();
  model.on("change:frames", draw);
  model.on("change:state", draw);
}

export default { render };
