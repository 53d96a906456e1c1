// mqlite console: forms sent to the REST API (with IBM's CSRF header), live charts, the network picture.
"use strict";
(function () {
  const CSRF = { "ibm-mq-rest-csrf-token": "console" };

  function show(id, text) {
    const el = document.getElementById(id);
    if (el) el.textContent = text;
  }

  async function refresh() {
    // the parts marked data-refresh, read again from this page's own URL
    const parts = document.querySelectorAll("[data-refresh]");
    if (!parts.length) return;
    const html = await (await fetch(location.href, { credentials: "same-origin" })).text();
    const fresh = new DOMParser().parseFromString(html, "text/html");
    parts.forEach((el) => {
      const other = fresh.getElementById(el.id);
      if (other) el.innerHTML = other.innerHTML;
    });
  }

  async function errorText(response) {
    try {
      const body = await response.json();
      return (body.error || []).map((e) => e.message).join("; ") || response.statusText;
    } catch (e) {
      return response.status + " " + response.statusText;
    }
  }

  async function submit(form) {
    const kind = form.dataset.kind, url = form.dataset.action;
    const value = (name) => form.elements[name].value;
    if (kind === "define" || kind === "mqsc") {
      const command = kind === "define" ? "DEFINE QLOCAL('" + value("queue").replace(/'/g, "''") + "')" : value("command");
      const response = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { ...CSRF, "content-type": "application/json" },
        body: JSON.stringify({ type: "runCommand", parameters: { command: command } }) });
      if (!response.ok) { show(kind === "mqsc" ? "mqsc-output" : "action-result", await errorText(response)); return; }
      const body = await response.json();
      const text = body.commandResponse.map((item) => (item.text || []).join("\n")).join("\n");
      if (kind === "mqsc") { show("mqsc-output", text); return; }
      show("action-result", text);
      if (body.overallCompletionCode === 0) location.reload();
    } else if (kind === "put") {
      const response = await fetch(url, { method: "POST", credentials: "same-origin",
        headers: { ...CSRF, "content-type": "text/plain;charset=utf-8" }, body: value("body") });
      show("action-result", response.ok ? "Message put." : await errorText(response));
      if (response.ok) { form.reset(); await refresh(); }
    }
  }

  async function takeMessage(url, destructive) {
    const response = await fetch(url, { method: destructive ? "DELETE" : "GET", credentials: "same-origin",
      headers: destructive ? CSRF : {} });
    if (response.status === 204) show("message-shown", "No message.");
    else if (response.ok) show("message-shown", await response.text());
    else show("message-shown", await errorText(response));
    if (destructive) await refresh();
  }

  function draw(figure, points) {
    const svg = figure.querySelector("svg");
    const w = 400, h = 120, pad = 6;
    const latest = figure.querySelector(".latest");
    if (!points.length) { latest.textContent = "no samples yet"; return; }
    // from the first sample kept (at most an hour ago) to the last
    const t1 = points[points.length - 1][0], t0 = Math.max(points[0][0], t1 - 3600);
    const top = Math.max(1, ...points.map((p) => p[1]));
    const xy = points.filter((p) => p[0] >= t0).map((p) =>
      [(pad + (w - 2 * pad) * (p[0] - t0) / Math.max(1, t1 - t0)).toFixed(1),
       (h - pad - (h - 2 * pad) * p[1] / top).toFixed(1)].join(","));
    svg.innerHTML = '<polyline fill="none" stroke="#1565c0" stroke-width="2" points="' + xy.join(" ") + '"/>' +
      '<text x="4" y="12" font-size="10">' + top.toFixed(top < 10 ? 1 : 0) + "</text>";
    const last = points[points.length - 1][1];
    latest.textContent = Number.isInteger(last) ? String(last) : last.toFixed(2);
    figure.dataset.latest = latest.textContent;
  }

  async function pollCharts() {
    const figures = Array.from(document.querySelectorAll("figure.chart"));
    const bySource = {};
    figures.forEach((f) => { (bySource[f.dataset.src] = bySource[f.dataset.src] || []).push(f); });
    for (const src of Object.keys(bySource)) {
      try {
        const body = await (await fetch(src, { credentials: "same-origin" })).json();
        const queue = new URL(src, location.href).searchParams.get("queue");
        const series = body.queues[queue] || {};
        bySource[src].forEach((f) => draw(f, series[f.dataset.series] || []));
      } catch (e) { /* a missed poll is retried at the next */ }
    }
  }

  async function pollNetwork(el) {
    try {
      const response = await fetch(el.dataset.poll, { credentials: "same-origin" });
      if (response.ok) el.innerHTML = await response.text();
    } catch (e) { /* retried at the next poll */ }
  }

  document.addEventListener("DOMContentLoaded", () => {
    const login = document.getElementById("login");
    if (login) {
      login.addEventListener("submit", async (event) => {
        event.preventDefault();
        const user = login.elements.username.value, password = login.elements.password.value;
        // the credentials checked first without cookies (credentials "omit"), so that a 401's Basic
        // challenge is answered here rather than by the browser's own password prompt
        const check = await fetch("/ibmmq/rest/v2/admin/installation", { credentials: "omit",
          headers: { authorization: "Basic " + btoa(unescape(encodeURIComponent(user + ":" + password))) } });
        if (!check.ok) { show("login-error", "Login failed: " + await errorText(check)); return; }
        const response = await fetch("/ibmmq/rest/v1/login", { method: "POST", credentials: "same-origin",
          headers: { ...CSRF, "content-type": "application/json" },
          body: JSON.stringify({ username: user, password: password }) });
        if (response.ok) location.href = login.dataset.next;
        else show("login-error", "Login failed: " + await errorText(response));
      });
    }
    const logout = document.getElementById("logout");
    if (logout) {
      logout.addEventListener("click", async () => {
        await fetch("/ibmmq/rest/v1/login", { method: "DELETE", credentials: "same-origin", headers: CSRF });
        location.href = "/console/login";
      });
    }
    document.querySelectorAll("form[data-action]").forEach((form) => {
      form.addEventListener("submit", (event) => { event.preventDefault(); submit(form); });
    });
    document.querySelectorAll("[data-browse]").forEach((b) => b.addEventListener("click", () => takeMessage(b.dataset.browse, false)));
    document.querySelectorAll("[data-get]").forEach((b) => b.addEventListener("click", () => takeMessage(b.dataset.get, true)));
    if (document.querySelector("figure.chart")) { pollCharts(); setInterval(pollCharts, 2000); }
    const net = document.querySelector("[data-poll]");
    if (net) setInterval(() => pollNetwork(net), 2000);
  });
})();
