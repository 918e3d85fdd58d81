// The Connect page as the Connect widget SDK's child (pluggy-connect-sdk opens its `url` in
// an iframe through zoid, component tag "pluggy-connect-widget"). zoid (zoid-frame.js, the
// package's own child side) reads the props the SDK's parent page sent; this file keeps
// the ones the page understands, checked by type and size (a parent may send anything),
// and turns the page's moments into the SDK's callbacks:
//   onSuccessProp({item}), onErrorProp({message, data: {item}}), onEventProp({event,
//   timestamp, ...}), onHideProp(); onOpen and onClose are the SDK's own, on zoid's display
//   and close events (the page closes through zoid's close()).
// Outside the SDK (a popup, a tab) window.PONTE_WIDGET is inert: active false, no props.
"use strict";
window.PONTE_WIDGET = (function () {
  const noop = () => undefined;
  const inert = { active: false, props: {}, options: (o) => o, event: noop, itemSeen: noop, success: noop, error: noop, close: () => false };
  let xprops = null;
  try {
    if (window.zoid) {
      window.zoid.create({ tag: "pluggy-connect-widget", url: location.origin + "/connect" });
      xprops = window.xprops || null;
    }
  } catch (e) {
    xprops = null; // not the SDK's child, or a parent of another zoid version
  }
  if (!xprops || typeof xprops !== "object") return inert;

  const MAX = 8192; // a Connect Token is a JWT of a few hundred characters
  const str = (v, max) => (typeof v === "string" && v.length > 0 && v.length <= (max || 256) ? v : undefined);
  const bool = (v) => (typeof v === "boolean" ? v : undefined);
  const int = (v) => (Number.isSafeInteger(v) && v > 0 ? v : undefined);
  const list = (v, each) => {
    if (!Array.isArray(v) || v.length > 100) return undefined;
    const out = v.map(each);
    return out.every((x) => x !== undefined) ? out : undefined;
  };
  const digits = (v) => (typeof v === "string" && /^[0-9.\-/ ]{1,20}$/.test(v) ? v.replace(/\D/g, "") : undefined);
  const of = xprops.openFinanceParameters;
  const props = {
    connectToken: str(xprops.connectToken, MAX),
    includeSandbox: bool(xprops.includeSandbox),
    allowConnectInBackground: bool(xprops.allowConnectInBackground),
    connectorTypes: list(xprops.connectorTypes, (x) => str(x, 64)),
    connectorIds: list(xprops.connectorIds, int),
    countries: list(xprops.countries, (x) => str(x, 8)),
    products: list(xprops.products, (x) => str(x, 64)),
    updateItem: /^[0-9a-f-]{36}$/i.test(str(xprops.updateItem, 36) || "") ? xprops.updateItem : undefined,
    selectedConnectorId: int(xprops.selectedConnectorId),
    language: str(xprops.language, 35),
    theme: xprops.theme === "dark" || xprops.theme === "light" ? xprops.theme : undefined,
    openFinanceParameters: of && typeof of === "object" && !Array.isArray(of) ? { cpf: digits(of.cpf), cnpj: digits(of.cnpj) } : undefined
  };
  if (props.theme) document.documentElement.dataset.theme = props.theme;

  // call runs one of the parent's callbacks: each is a function proxied by zoid across the
  // frame, answered asynchronously; a parent that left it out, or whose handler throws,
  // does not stop the page.
  function call(name, arg) {
    const fn = xprops[name];
    if (typeof fn !== "function") return;
    try {
      const p = arg === undefined ? fn() : fn(arg);
      if (p && typeof p.catch === "function") p.catch(noop);
    } catch (e) { /* the parent's handler failed */ }
  }
  function event(name, extra) {
    call("onEventProp", Object.assign({ event: name, timestamp: Date.now() }, extra || {}));
    if (name === "SUBMITTED_LOGIN" || name === "SUBMITTED_CONSENT") { loggedIn = false; mfaSent = false; }
    if (name === "SUBMITTED_MFA") mfaSent = true;
  }

  // The login step is over once the item leaves the login statuses: the institution took the
  // credentials (and the one-time code, when one was asked).
  let loggedIn = false;
  let mfaSent = false;
  const LOGIN = ["CREATING", "CREATED", "LOGIN_IN_PROGRESS", "WAITING_USER_INPUT", "WAITING_USER_ACTION", "LOGIN_MFA_IN_PROGRESS", "USER_AUTHORIZATION_PENDING"];
  function itemSeen(it) {
    if (loggedIn || !it) return;
    const past = it.status === "UPDATED" || (it.status === "UPDATING" && it.executionStatus && !LOGIN.includes(it.executionStatus));
    if (!past) return;
    loggedIn = true;
    event(mfaSent ? "LOGIN_MFA_SUCCESS" : "LOGIN_SUCCESS", { item: it });
    event("LOGIN_STEP_COMPLETED", { item: it });
  }

  // options puts the props over the token's Connect page options where the token left one
  // unset: the token's are the application's word, and the server holds items to them.
  function options(o) {
    const out = Object.assign({}, o);
    for (const k of ["includeSandbox", "connectorTypes", "countries", "products"]) {
      const unset = out[k] === undefined || out[k] === null || (Array.isArray(out[k]) && out[k].length === 0);
      if (unset && props[k] !== undefined) out[k] = props[k];
    }
    return out;
  }

  return {
    active: true,
    props: props,
    options: options,
    event: event,
    itemSeen: itemSeen,
    success: (it) => { itemSeen(it); call("onSuccessProp", { item: it }); },
    error: (message, it) => call("onErrorProp", it ? { message: message, data: { item: it } } : { message: message }),
    // close ends the widget as the SDK's close does, or hides it when the application lets
    // the connection go on in the background; true: handled here.
    close: () => {
      if (props.allowConnectInBackground) {
        call("onHideProp");
        if (typeof xprops.hide === "function") xprops.hide();
      } else if (typeof xprops.close === "function") {
        xprops.close();
      }
      return true;
    }
  };
})();
