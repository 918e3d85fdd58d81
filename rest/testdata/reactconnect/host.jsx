// The application's page in the React component's browser test: a React app that renders
// react-pluggy-connect's <PluggyConnect> with `url` pointed at Ponte, as a React front end
// does. It keeps what each callback got in the globals the SDK's host page keeps
// (window.calls: callbacks in order; window.events: onEvent's payloads), so the same rig
// drives both. The "Remove widget" button unmounts the component, as a route change does.
import React, { useState } from "react";
import { createRoot } from "react-dom/client";
import { PluggyConnect } from "react-pluggy-connect";

window.calls = [];
window.events = [];

const copy = (data) => (data === undefined ? null : JSON.parse(JSON.stringify(data)));
const keep = (name) => (data) => { window.calls.push({ name, data: copy(data) }); };

function App({ url, connectToken, extra }) {
  const [shown, setShown] = useState(true);
  return (
    <main>
      <button id="unmount" type="button" onClick={() => setShown(false)}>Remove widget</button>
      {shown && (
        <PluggyConnect
          url={url}
          connectToken={connectToken}
          includeSandbox
          onOpen={keep("onOpen")}
          onSuccess={keep("onSuccess")}
          onError={keep("onError")}
          onClose={keep("onClose")}
          onHide={keep("onHide")}
          onEvent={(payload) => { window.events.push(copy(payload)); }}
          // The component calls innerRef once the SDK has rendered the widget, onLoadError
          // if it could not: the same moments as the SDK host page's "rendered".
          innerRef={(ref) => { if (ref) window.calls.push({ name: "rendered" }); }}
          onLoadError={(e) => window.calls.push({ name: "renderFailed", data: String(e) })}
          {...extra}
        />
      )}
    </main>
  );
}

let root;
window.openWidget = (url, connectToken, extra) => {
  if (root) root.unmount();
  let el = document.getElementById("app");
  if (!el) {
    el = document.createElement("div");
    el.id = "app";
    document.body.append(el);
  }
  root = createRoot(el);
  root.render(<App url={url} connectToken={connectToken} extra={extra || {}} />);
};
