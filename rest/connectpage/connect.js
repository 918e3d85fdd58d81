// Ponte Connect: the page an end user opens to link an institution. It drives the REST
// API with the Connect Token it was given (X-API-KEY): GET /connect_token for the
// application's options, GET /connectors, POST /items (or PATCH /items/{id} to update),
// GET /items/{id} every moment to follow the execution, POST /items/{id}/mfa, and for a
// statement-file connector POST /items/{id}/statements with the file the user picks. Every rule
// (validation, token options, what a token may reach) is the server's; this script only
// shows the steps. It ends by posting a message to its opener (or parent) window:
//   {type: "ponte-connect", event: "success" | "error" | "close", item: {...}, error: {...}}
// to the token's options.targetOrigin only (or the origin of options.redirectUri), and,
// with options.redirectUri, by sending the user there with ?itemId=.
"use strict";
(function () {
  // W: the Connect widget SDK around this page (widget.js), inert when there is none.
  const W = window.PONTE_WIDGET;
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  // consented: the institution sent back the tab the widget opened for it (see showForm).
  const consented = query.get("consented") === "1";
  const STORE = "ponte-connect";
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem(STORE) || "null"); } catch (e) { saved = null; }
  const fromURL = W.props.connectToken || query.get("connect_token") || fragment.get("connect_token");
  // The page speaks Portuguese and English. The widget's language prop, when it names
  // neither, falls back as the SDK declares: to the browser's language, then to English.
  const spoken = (s) => (/^en\b/i.test(s || "") ? "en" : /^pt\b/i.test(s || "") ? "pt" : null);
  const lang = W.props.language
    ? spoken(W.props.language) || spoken(navigator.language) || "en"
    : /^en\b/i.test(query.get("lang") || fragment.get("lang") || (!fromURL && saved && saved.lang) || "pt") ? "en" : "pt";
  const T = window.PONTE_I18N[lang];
  // said: an institution's own words (labels, hints, prompts), in English where the table
  // has them; the API sends them as the institution wrote them.
  const said = (s) => (s && lang === "en" && window.PONTE_INSTITUTIONS_EN[s]) || s;
  document.documentElement.lang = lang === "en" ? "en" : "pt-BR";

  // The token: from the URL (a fresh start), or from this tab's storage when the user comes
  // back from an institution's OAuth page. It leaves the address bar at once.
  let token = fromURL;
  let resumeItem = null;
  if (fromURL) {
    saved = { token: fromURL, lang: lang };
  } else if (saved && saved.token) {
    token = saved.token;
    resumeItem = saved.itemId || null;
  }
  remember();
  history.replaceState(null, "", location.pathname + (lang === "en" ? "?lang=en" : ""));

  function remember() {
    try { if (saved) sessionStorage.setItem(STORE, JSON.stringify(saved)); } catch (e) { /* private mode */ }
  }
  function forget() {
    try { sessionStorage.removeItem(STORE); } catch (e) { /* private mode */ }
  }

  const main = document.getElementById("main");
  const live = document.getElementById("live");
  const alertRegion = document.getElementById("alert");
  const closeButton = document.getElementById("close");
  closeButton.textContent = T.close;
  document.getElementById("step-loading").querySelector("h1").textContent = T.loading;

  let options = {};
  let targetOrigin = null;
  let connectors = [];
  let connector = null;
  let item = null;
  let updating = false; // the token was issued for an existing item
  let shown = "";
  let pollTimer = null;

  // ---- small helpers ----
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "on") for (const [ev, fn] of Object.entries(v)) e.addEventListener(ev, fn);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c) e.append(c);
    return e;
  }
  function fold(s) {
    return (s || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  // apiMessage: the person-facing words for an API refusal, the API's own message otherwise.
  function apiMessage(e) {
    const code = e.body && e.body.codeDescription;
    return (code && T.api[code]) || e.message;
  }
  function originOf(u) {
    try { const x = new URL(u); return x.origin; } catch (e) { return null; }
  }
  // announce says text once: polling repeats the same status, which is not news.
  function announce(text) {
    if (live.textContent === text) return;
    live.textContent = text;
  }
  function alertText(text) { alertRegion.textContent = ""; alertRegion.textContent = text; }
  // The statement-file connectors share one logo: the file is the user's, from any bank.
  function logo(c) { return "/connect/assets/logo-" + (c.statementFormat ? "statement" : c.id) + ".svg"; }
  // form: the credentials form and the MFA prompt (fields.js).
  const form = window.PONTE_FIELDS({ el: el, said: said, T: T, alertText: alertText });

  // step replaces what the page shows with a new step and moves focus to its heading, so
  // keyboard and screen reader users land on the new content.
  function step(name, title, key) {
    shown = key || name;
    for (const s of main.querySelectorAll("section.step")) s.remove();
    const h = el("h1", { tabindex: "-1", text: title });
    const s = el("section", { class: "step", id: "step-" + name, "aria-labelledby": "title-" + name }, h);
    h.id = "title-" + name;
    main.append(s);
    document.title = title + " · Ponte Connect";
    setTimeout(() => h.focus(), 0);
    return s;
  }

  async function api(method, path, body) {
    const init = { method: method, headers: { "X-API-KEY": token, "Accept": "application/json" } };
    if (body instanceof FormData) {
      // The browser writes the multipart Content-Type, with its boundary.
      init.body = body;
    } else if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      const err = new Error(T.networkError);
      err.network = true;
      throw err;
    }
    const data = await r.json().catch(() => ({}));
    if (!r.ok) {
      const err = new Error(data.message || String(r.status));
      err.status = r.status;
      err.body = data;
      throw err;
    }
    return data;
  }

  // ---- messages to the application ----
  function summary(it) {
    if (!it) return null;
    return {
      id: it.id, connector: it.connector ? { id: it.connector.id, name: it.connector.name } : null,
      status: it.status, executionStatus: it.executionStatus, error: it.error || null,
      clientUserId: it.clientUserId || null, createdAt: it.createdAt, updatedAt: it.updatedAt,
      lastUpdatedAt: it.lastUpdatedAt || null
    };
  }
  function post(event, extra) {
    const target = window.opener || (window.parent !== window ? window.parent : null);
    if (!target || !targetOrigin) return;
    const msg = Object.assign({ type: "ponte-connect", event: event, item: summary(item) }, extra || {});
    try { target.postMessage(msg, targetOrigin); } catch (e) { /* the opener went away */ }
  }
  // finished: the page already told the application how it ended (or is leaving for the
  // institution's page, and comes back); otherwise a window closed by the user is a close.
  let finished = false;
  function closing() {
    if (finished) return;
    finished = true;
    stopPolling();
    post("close");
  }
  closeButton.addEventListener("click", () => {
    if (W.props.allowConnectInBackground) return W.close(); // the connection goes on, hidden
    closing();
    if (!W.close()) window.close();
  });
  window.addEventListener("pagehide", closing);

  // ---- start ----
  async function start() {
    if (!token) return consented ? consentDone() : invalidToken();
    let session;
    try {
      session = await api("GET", "/connect_token");
    } catch (e) {
      return e.network ? fatal(T.networkError) : invalidToken(e.body && e.body.codeDescription);
    }
    options = W.options(session.options || {});
    targetOrigin = options.targetOrigin || originOf(options.redirectUri) || null;
    const itemId = resumeItem || session.itemId || W.props.updateItem;
    if (itemId) {
      try {
        item = await api("GET", "/items/" + encodeURIComponent(itemId));
        connector = await api("GET", "/connectors/" + item.connector.id);
      } catch (e) {
        return e.network ? fatal(T.networkError) : invalidToken();
      }
      if (resumeItem) return follow(item);
      updating = true;
      return showForm({});
    }
    await loadConnectors();
  }

  // consentDone ends the tab the widget opened for the institution: opened noopener from
  // another site's frame, it holds no token, and the frame already follows the item.
  function consentDone() {
    const s = step("consented", T.consentedTitle);
    s.append(el("p", { id: "consented-text", text: T.consentedText }));
    announce(T.consentedText);
  }

  function invalidToken(code) {
    forget();
    const s = step("token", T.tokenTitle);
    s.append(el("p", { class: "error-box", text: T.tokenText }));
    alertText(T.tokenText);
    post("error", { error: { code: code || "API_KEY_INVALID", message: T.tokenText } });
    W.error(T.tokenText);
  }
  function fatal(message) {
    const s = step("fatal", T.errorTitle);
    s.append(el("p", { class: "error-box", text: message }),
      el("button", { type: "button", class: "primary", text: T.retry, on: { click: () => { finished = true; location.reload(); } } }));
    alertText(message);
  }

  // ---- institutions ----
  async function loadConnectors() {
    const q = new URLSearchParams({ pageSize: "500", sandbox: options.includeSandbox ? "true" : "false" });
    if (options.connectorTypes && options.connectorTypes.length) q.set("types", options.connectorTypes.join(","));
    try {
      const page = await api("GET", "/connectors?" + q.toString());
      const wanted = options.products || [];
      const ids = W.props.connectorIds;
      // Countries are matched here, not by the API's filter, which refuses a country the
      // catalogue lacks: the SDK's countries may name any, and one with no institution
      // lists none.
      const countries = options.countries && options.countries.length ? options.countries : null;
      connectors = page.results.filter((c) => wanted.every((p) => (c.products || []).includes(p)) && (!ids || ids.includes(c.id)) &&
        (!countries || countries.includes(c.country)));
    } catch (e) {
      return fatal(e.network ? T.networkError : e.message);
    }
    const pre = connectors.find((c) => c.id === W.props.selectedConnectorId);
    return pre ? choose(pre) : showList();
  }
  function choose(c) {
    connector = c;
    W.event("SELECTED_INSTITUTION", { connector: c });
    // The SDK pre-fills the CPF and CNPJ on Open Finance connectors only: another
    // institution's login may be someone else's document.
    showForm({ values: c.isOpenFinance ? W.props.openFinanceParameters : undefined });
  }

  function showList() {
    const s = step("list", T.pickTitle);
    const search = el("input", { type: "search", id: "search", placeholder: T.searchPlaceholder, autocomplete: "off", "aria-controls": "connectors", "aria-describedby": "count" });
    const count = el("p", { id: "count", class: "hint", "aria-live": "polite" });
    const list = el("ul", { id: "connectors", class: "connectors" });
    s.append(el("label", { for: "search", text: T.searchLabel }), search, count, list);
    function render() {
      const q = fold(search.value.trim());
      list.textContent = "";
      const hits = connectors.filter((c) => fold(c.name).includes(q));
      for (const c of hits) {
        const status = (c.health && c.health.status) || "ONLINE";
        const meta = [T.types[c.type] || c.type, c.isOpenFinance ? T.openFinance : null].filter(Boolean).join(" · ");
        const b = el("button", { type: "button", class: "connector", "data-connector-id": String(c.id), disabled: status === "OFFLINE",
          on: { click: () => choose(c) } },
        el("img", { src: logo(c), alt: "", width: "40", height: "40" }),
        el("span", {}, el("span", { class: "name", text: c.name }),
          el("span", { class: "meta" }, meta + " · ", el("span", { class: "health-" + status, text: T.health[status] || status }))));
        list.append(el("li", {}, b));
      }
      count.textContent = hits.length ? T.count(hits.length) : T.none;
    }
    search.addEventListener("input", render);
    render();
  }

  function chosen() {
    return el("p", { class: "chosen" }, el("img", { src: logo(connector), alt: "", width: "32", height: "32" }), el("span", { text: connector.name }));
  }

  // ---- the credentials form ----
  function showForm(opts) {
    stopPolling();
    if (connector.statementFormat) return showFile(opts);
    const s = step("form", updating ? T.updateTitle(connector.name) : T.formTitle(connector.name));
    s.append(chosen());
    if (opts.error) {
      s.append(el("p", { class: "error-box", id: "form-error", text: opts.error }));
      alertText(opts.error);
    }
    if (connector.oauth) s.append(el("p", { class: "hint", text: T.oauthIntro }));
    // An update sends the one-time code with the credentials (items rule 4); a new item is
    // asked for it when the institution wants it.
    const params = (connector.credentials || []).filter((p) => !p.mfa || item);
    form(s, params, opts.values, T.connect, async (values) => {
      W.event(connector.oauth ? "SUBMITTED_CONSENT" : "SUBMITTED_LOGIN");
      try {
        let it;
        if (item) {
          it = await api("PATCH", "/items/" + item.id, { parameters: values });
        } else {
          const body = { connectorId: connector.id, parameters: values };
          if (options.products && options.products.length) body.products = options.products;
          // Open Finance: the institution sends the user back here, where the tab's storage
          // holds the token and the item, unless the application set its own return address.
          // From the widget the institution's tab has no token (see showAction), so it comes
          // back to a page that only says the authorization is done, in this language.
          if (connector.oauth && !options.oauthRedirectUri) {
            body.oauthRedirectUri = location.origin + "/connect" +
              (W.active ? "?consented=1" + (lang === "en" ? "&lang=en" : "") : "");
          }
          it = await api("POST", "/items", body);
        }
        W.event("ITEM_RESPONSE", { item: it });
        item = it;
        saved.itemId = it.id;
        remember();
        follow(it);
      } catch (e) {
        const fieldErrors = {};
        for (const d of (e.body && e.body.details) || []) if (d.parameter) fieldErrors[d.parameter] = d.message;
        const n = Object.keys(fieldErrors).length;
        showForm({ error: n ? T.fixErrors(n) : apiMessage(e), values: values, fieldErrors: fieldErrors });
      }
    }, opts.fieldErrors);
    if (!item) {
      s.append(el("button", { type: "button", class: "secondary", text: T.back, on: { click: () => showList() } }));
    }
  }

  // ---- the statement file (connectors with a statementFormat: no credentials) ----
  // The item is made with no parameters, once: a refused file leaves it as it was, and the
  // next file goes to the same item. Its first execution (or the one running when the token
  // was issued) must end before a file is taken.
  const FILE_TYPES = { OFX: ".ofx,.qfx", CSV: ".csv,.txt" };
  const MAX_FILE = 64 << 20;
  function showFile(opts) {
    const format = connector.statementFormat;
    const s = step("file", updating ? T.updateTitle(connector.name) : T.formTitle(connector.name));
    s.append(chosen());
    if (opts.error) {
      // The API's message says which line stopped it; it is English, so said as English.
      const detail = opts.detail ? el("span", { lang: lang === "en" ? null : "en", text: opts.detail }) : null;
      s.append(el("p", { class: "error-box", id: "form-error" }, opts.error, detail ? " " : null, detail));
      alertText(opts.error + (opts.detail ? " " + opts.detail : ""));
    }
    const input = el("input", { type: "file", id: "f-file", name: "file", accept: FILE_TYPES[format] || null,
      "aria-required": "true", "aria-describedby": "file-intro f-file-error" });
    const err = el("p", { class: "field-error", id: "f-file-error", hidden: true });
    const status = el("p", { class: "hint", id: "file-status" });
    const submit = el("button", { type: "submit", class: "primary", text: T.upload });
    const f = el("form", { novalidate: true, id: "statement" },
      el("p", { class: "hint", id: "file-intro", text: T.fileIntro(format) }),
      el("div", { class: "field" }, el("label", { for: "f-file", text: T.fileLabel(format) }), input, err),
      submit, status);
    input.addEventListener("change", () => { err.hidden = true; input.setAttribute("aria-invalid", "false"); });
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const file = input.files && input.files[0];
      const wrong = !file ? T.fileRequired : file.size > MAX_FILE ? T.api.STATEMENT_FILE_TOO_LARGE : "";
      if (wrong) {
        err.textContent = wrong;
        err.hidden = false;
        input.setAttribute("aria-invalid", "true");
        alertText(wrong);
        input.focus();
        return;
      }
      submit.disabled = true;
      status.textContent = T.uploading;
      announce(T.uploading);
      try {
        follow(await sendFile(file));
      } catch (e) {
        const code = e.body && e.body.codeDescription;
        if (code === "STATEMENT_FILE_INVALID") showFile({ error: T.fileRefused, detail: e.message });
        else showFile({ error: apiMessage(e) });
      }
    });
    s.append(f);
    if (!item) {
      s.append(el("button", { type: "button", class: "secondary", text: T.back, on: { click: () => showList() } }));
    }
  }

  async function sendFile(file) {
    if (!item) {
      const body = { connectorId: connector.id, parameters: {} };
      if (options.products && options.products.length) body.products = options.products;
      item = await api("POST", "/items", body);
      saved.itemId = item.id;
      remember();
    }
    for (;;) {
      item = await api("GET", "/items/" + item.id);
      if (!["UPDATING", "MERGING", "WAITING_USER_INPUT", "WAITING_USER_ACTION"].includes(item.status)) break;
      await new Promise((done) => setTimeout(done, 300));
    }
    const data = new FormData();
    data.append("file", file, file.name);
    return api("POST", "/items/" + item.id + "/statements", data);
  }

  // ---- following the item ----
  // Every stop or new poll makes the answers of earlier polls stale: an answer that comes
  // back after the user acted (an MFA sent) must not bring the previous step back.
  let pollGeneration = 0;
  function stopPolling() {
    pollGeneration++;
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = null;
  }
  function poll() {
    stopPolling();
    const mine = pollGeneration;
    pollTimer = setTimeout(async () => {
      try {
        const it = await api("GET", "/items/" + item.id);
        if (mine === pollGeneration) follow(it);
      } catch (e) {
        if (mine !== pollGeneration) return;
        if (e.network) { announce(T.networkError); poll(); } else fatal(apiMessage(e));
      }
    }, 700);
  }

  function follow(it) {
    item = it;
    W.itemSeen(it);
    const st = it.status;
    if (st === "UPDATED") return success();
    if (st === "LOGIN_ERROR" || st === "OUTDATED") return failure();
    if (st === "WAITING_USER_INPUT" && it.parameter) {
      if (shown !== mfaKey(it)) showMFA();
      return poll();
    }
    if (st === "WAITING_USER_ACTION" && it.userAction) {
      const key = "action:" + JSON.stringify(it.userAction.attributes || {});
      if (shown !== key) showAction(key);
      return poll();
    }
    progress();
    poll();
  }

  function progress() {
    const text = T.status[item.executionStatus] || T.working;
    if (shown !== "progress") {
      const s = step("progress", T.progressTitle);
      s.append(chosen(), el("div", { class: "spinner", "aria-hidden": "true" }), el("p", { id: "progress-text", text: text }));
    } else {
      document.getElementById("progress-text").textContent = text;
    }
    announce(text);
  }

  function mfaKey(it) { return "mfa:" + it.parameter.name + ":" + (it.parameter.expiresAt || ""); }

  function showMFA() {
    const p = item.parameter;
    const s = step("mfa", T.mfaTitle, mfaKey(item));
    s.append(chosen());
    if (p.expiresAt) s.append(el("p", { class: "hint", text: T.expires(new Date(p.expiresAt).toLocaleTimeString(document.documentElement.lang)) }));
    form(s, [Object.assign({}, p, { optional: false })], null, T.send, async (values) => {
      stopPolling();
      W.event("SUBMITTED_MFA");
      try {
        follow(await api("POST", "/items/" + item.id + "/mfa", { [p.name]: values[p.name] || "" }));
      } catch (e) {
        const message = apiMessage(e);
        alertText(message);
        const old = s.querySelector(".error-box");
        if (old) old.remove();
        const box = el("p", { class: "error-box", text: message });
        s.insertBefore(box, s.querySelector("form"));
        poll();
      }
    });
  }

  function showAction(key) {
    const a = item.userAction;
    const attrs = a.attributes || {};
    const oauth = !!attrs.oauthUrl || connector.oauth;
    const title = oauth ? T.oauthTitle : a.type === "qr" ? T.qrTitle : T.actionTitle;
    const s = step("action", title, key);
    s.append(chosen(), el("p", { id: "instructions", text: said(a.instructions) }));
    if (a.expiresAt) s.append(el("p", { class: "hint", text: T.expires(new Date(a.expiresAt).toLocaleTimeString(document.documentElement.lang)) }));
    if (oauth && (attrs.oauthUrl || attrs.url)) {
      // The institution's page replaces this one and sends the user back (see showForm).
      // It opens in a new tab instead, this page following the item meanwhile, when the
      // application chose where the institution returns, and inside the widget: the
      // institution's page refuses every frame (frame-ancestors 'none'), so in the widget's
      // frame the browser would refuse it and the connection could never finish.
      const own = !!options.oauthRedirectUri || W.active;
      s.append(el("a", { class: "primary", id: "action-link", href: attrs.oauthUrl || attrs.url, rel: "noopener",
        target: own ? "_blank" : null, text: T.oauthGo, on: { click: () => { if (!own) finished = true; } } }));
    } else if (a.type === "qr" && attrs.qr) {
      if (String(attrs.qr).startsWith("data:image/")) s.append(el("img", { class: "captcha", src: attrs.qr, alt: T.qrTitle }));
      else s.append(el("a", { class: "primary", id: "action-link", href: attrs.qr, target: "_blank", rel: "noopener", text: T.openQR }));
    } else if (attrs.url) {
      s.append(el("a", { class: "primary", id: "action-link", href: attrs.url, target: "_blank", rel: "noopener", text: T.openLink }));
    }
    s.append(el("div", { class: "spinner", "aria-hidden": "true" }), el("p", { text: T.waitingAction }));
    announce(said(a.instructions));
  }

  // ---- outcomes ----
  function success() {
    stopPolling();
    forget();
    post("success");
    W.success(item);
    if (options.redirectUri) {
      finished = true;
      const u = new URL(options.redirectUri);
      u.searchParams.set("itemId", item.id);
      location.assign(u.toString());
      return;
    }
    const partial = item.executionStatus === "PARTIAL_SUCCESS";
    const s = step("success", T.successTitle);
    s.append(chosen(), el("p", { id: "success-text", text: partial ? T.partialText(connector.name) : T.successText(connector.name) }),
      el("button", { type: "button", class: "primary", text: T.done, on: { click: () => { closing(); if (!W.close()) window.close(); } } }));
  }

  function failure() {
    stopPolling();
    const e = item.error || { code: item.executionStatus, message: "" };
    const message = T.errors[e.code] || T.errors.UNEXPECTED_ERROR;
    post("error", { error: { code: e.code, message: e.message } });
    W.error(e.message || message, item);
    if (e.code === "INVALID_CREDENTIALS" || e.code === "INVALID_CREDENTIALS_MFA") {
      return showForm({ error: message });
    }
    const s = step("error", T.errorTitle);
    s.append(chosen(), el("p", { class: "error-box", id: "error-text", "data-code": e.code, text: message }));
    if (e.providerMessage) s.append(el("p", { class: "hint", text: said(e.providerMessage) }));
    alertText(message);
    if (e.code === "ACCOUNT_CREDENTIALS_RESET" && connector.resetPasswordUrl) {
      s.append(el("a", { class: "secondary", href: connector.resetPasswordUrl, target: "_blank", rel: "noopener", text: T.resetPassword }));
    }
    if (e.code !== "USER_NOT_SUPPORTED") {
      s.append(el("button", { type: "button", class: "primary", id: "retry", text: T.retry, on: { click: () => showForm({}) } }));
    }
  }

  start();
})();
