// The application's page in the Connect widget SDK's browser test: it opens the widget the
// way a front end does, with `url` pointed at Ponte, and keeps what each callback got for
// the test to read (window.calls: callbacks in order; window.events: onEvent's payloads).
import { PluggyConnect } from "pluggy-connect-sdk";

window.calls = [];
window.events = [];
window.openWidget = (url, connectToken, extra) => {
  const keep = (name) => (data) => { window.calls.push({ name, data: data === undefined ? null : JSON.parse(JSON.stringify(data)) }); };
  const widget = new PluggyConnect(Object.assign({
    url,
    connectToken,
    includeSandbox: true,
    onOpen: keep("onOpen"),
    onSuccess: keep("onSuccess"),
    onError: keep("onError"),
    onClose: keep("onClose"),
    onHide: keep("onHide"),
    onEvent: (payload) => { window.events.push(JSON.parse(JSON.stringify(payload))); },
  }, extra || {}));
  window.widget = widget;
  widget.init().then(() => window.calls.push({ name: "rendered" }), (e) => window.calls.push({ name: "renderFailed", data: String(e) }));
};
