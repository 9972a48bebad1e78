// LiveCurve's front end: the forward curve drawn by hand in SVG, nothing
// loaded from the network. The model holds each tenor's latest price (in
// calendar order) and the first value seen (drawn faintly behind).
const SVG = "http://www.w3.org/2000/svg";
const HEIGHT = 320;
const MARGIN = { top: 12, right: 16, bottom: 56, left: 72 };
// Tick-to-screen times kept for the benchmarks (ms), the newest last.
const LATENCIES_KEPT = 10000;

function svg(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function niceTicks(low, high, count) {
  const span = high - low || Math.abs(high) || 1;
  const step0 = span / count;
  const power = Math.pow(10, Math.floor(Math.log10(step0)));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= step0) || step0;
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v <= high + step * 1e-9; v += step) ticks.push(v);
  return { ticks, step };
}

function format(value, step) {
  const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(step || 1)) + 1));
  return value.toLocaleString(undefined, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function when(millis) {
  if (!millis) return "";
  return new Date(millis).toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "mc-live mc-live-curve";
  root.mcLatencies = [];
  const head = document.createElement("div");
  head.className = "mc-live-head";
  const title = document.createElement("div");
  title.className = "mc-live-title";
  const state = document.createElement("span");
  state.className = "mc-live-state";
  head.append(title, state);
  const sub = document.createElement("div");
  sub.className = "mc-live-sub";
  const chart = svg("svg", { class: "mc-live-chart", height: HEIGHT, role: "img" });
  root.append(head, sub, chart);
  el.appendChild(root);

  let last = { tenors: [], prices: [] };

  function draw() {
    const tenors = model.get("tenors");
    const kinds = model.get("tenor_kinds");
    const prices = model.get("prices");
    const snapshot = model.get("snapshot");
    const units = model.get("units");
    const width = Math.max(320, root.clientWidth || 640);
    title.textContent = model.get("title");
    const st = model.get("state");
    state.textContent = st;
    state.dataset.state = st.startsWith("stopped") ? "stopped" : st;
    root.classList.toggle("mc-live-ended", !["waiting", "live"].includes(st));
    const times = model.get("times");
    const newest = times.length ? Math.max(...times) : 0;
    sub.textContent = tenors.length
      ? `${tenors.length} tenors · ${model.get("ticks").toLocaleString()} ticks · as of ${when(newest)}`
      : "waiting for the feed's first values";

    chart.setAttribute("width", width);
    chart.setAttribute("viewBox", `0 0 ${width} ${HEIGHT}`);
    chart.setAttribute("aria-label", `${model.get("title")}: forward curve`);
    chart.replaceChildren();
    const plotW = width - MARGIN.left - MARGIN.right;
    const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
    const values = prices.concat(snapshot).filter((v) => Number.isFinite(v));
    let low = Math.min(...values), high = Math.max(...values);
    if (!values.length) { low = 0; high = 1; }
    const pad = (high - low) * 0.08 || Math.abs(high) * 0.01 || 1;
    low -= pad; high += pad;
    const { ticks, step } = niceTicks(low, high, 5);
    const x = (i) => MARGIN.left + (tenors.length <= 1 ? plotW / 2 : (i * plotW) / (tenors.length - 1));
    const y = (v) => MARGIN.top + plotH - ((v - low) / (high - low)) * plotH;

    const grid = svg("g", { class: "mc-live-grid" }, chart);
    for (const t of ticks) {
      svg("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(t), y2: y(t) }, grid);
      const label = svg("text", { x: MARGIN.left - 6, y: y(t), "text-anchor": "end", "dominant-baseline": "middle" }, grid);
      label.textContent = format(t, step);
    }
    const axis = svg("text", {
      class: "mc-live-units",
      transform: `translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)`,
      "text-anchor": "middle",
    }, chart);
    axis.textContent = units ? `price (${units})` : "price";
    // Tenor labels, thinned to fit.
    const every = Math.max(1, Math.ceil((tenors.length * 44) / plotW));
    const labels = svg("g", { class: "mc-live-tenors" }, chart);
    tenors.forEach((tenor, i) => {
      if (i % every) return;
      const label = svg("text", {
        x: x(i), y: HEIGHT - MARGIN.bottom + 14, "text-anchor": "end",
        transform: `rotate(-40 ${x(i)} ${HEIGHT - MARGIN.bottom + 14})`,
      }, labels);
      label.textContent = tenor;
    });

    // One series per kind: a line never joins a month to a quarter.
    for (const kind of model.get("kinds")) {
      const indices = tenors.map((_, i) => i).filter((i) => kinds[i] === kind);
      if (!indices.length) continue;
      const series = svg("g", { class: `mc-live-series mc-live-kind-${kind}`, "data-kind": kind }, chart);
      const path = (list) => indices.map((i) => `${x(i).toFixed(1)},${y(list[i]).toFixed(1)}`).join(" ");
      svg("polyline", { class: "mc-live-snapshot", points: path(snapshot) }, series);
      svg("polyline", { class: "mc-live-line", points: path(prices) }, series);
      for (const i of indices) {
        const moved = last.prices[last.tenors.indexOf(tenors[i])] !== prices[i];
        const point = svg("circle", {
          class: "mc-live-point" + (moved ? " mc-live-moved" : ""),
          cx: x(i).toFixed(1), cy: y(prices[i]).toFixed(1), r: 3.5,
          "data-tenor": tenors[i], "data-price": prices[i],
        }, series);
        const tip = svg("title", {}, point);
        const change = prices[i] - snapshot[i];
        tip.textContent = `${tenors[i]}: ${prices[i]} ${units} (${change >= 0 ? "+" : ""}${change.toFixed(3)} since the first value)`;
      }
    }
    // How long each moved value took from the feed to the screen.
    const received = model.get("received");
    const moved = tenors.map((t, i) => i).filter((i) => last.prices[last.tenors.indexOf(tenors[i])] !== prices[i]);
    last = { tenors, prices };
    if (moved.length) {
      requestAnimationFrame(() => {
        const now = performance.timeOrigin + performance.now();
        for (const i of moved) root.mcLatencies.push(now - received[i]);
        if (root.mcLatencies.length > LATENCIES_KEPT) root.mcLatencies.splice(0, root.mcLatencies.length - LATENCIES_KEPT);
      });
    }
  }

  draw();
  model.on("change:frames", draw);
  model.on("change:state", draw);
  model.on("change:title", draw);
  const resize = new ResizeObserver(() => draw());
  resize.observe(root);
  return () => resize.disconnect();
}

export default { render };
