// Ponte Connect's credential fields, shared by the credentials form and the MFA prompt
// (connect.js): one field per parameter the API describes (text, password, number, select,
// captcha image), checked as the server will check it before the form is sent, with the
// server's own refusals shown beside the fields they name. connect.js hands it its helpers
// (el, said, T, alertText) and gets back form(section, params, values, submitText,
// onSubmit, serverErrors).
"use strict";
window.PONTE_FIELDS = function (deps) {
  const el = deps.el, said = deps.said, T = deps.T, alertText = deps.alertText;

  function field(p, value) {
    const id = "f-" + p.name;
    const described = [];
    const wrap = el("div", { class: "field" });
    const label = said(p.label);
    wrap.append(el("label", { for: id, text: label + (p.optional ? " " + T.optional : "") }));
    if (p.type === "image" && p.data) {
      const src = p.data.startsWith("data:") ? p.data : "data:image/png;base64," + p.data;
      wrap.append(el("img", { class: "captcha", src: src, alt: label }));
    }
    let input;
    if (p.type === "select") {
      input = el("select", { id: id, name: p.name });
      if (p.optional || !value) input.append(el("option", { value: "", text: said(p.placeholder) || "—" }));
      for (const o of p.options || []) input.append(el("option", { value: o.value, text: said(o.label), selected: o.value === value }));
    } else {
      const type = p.type === "password" ? "password" : "text";
      input = el("input", { id: id, name: p.name, type: type, placeholder: said(p.placeholder) || null,
        inputmode: p.type === "number" ? "numeric" : null, autocomplete: p.type === "password" ? "current-password" : "off",
        autocapitalize: "none", spellcheck: "false" });
      if (value) input.value = value;
    }
    if (!p.optional) input.setAttribute("aria-required", "true");
    wrap.append(input);
    for (const [k, text] of [["assistive", p.assistiveText], ["instructions", p.instructions]]) {
      if (!text) continue;
      const hid = id + "-" + k;
      described.push(hid);
      wrap.append(el("p", { class: "hint", id: hid, text: said(text) }));
    }
    const err = el("p", { class: "field-error", id: id + "-error", hidden: true });
    described.push(err.id);
    wrap.append(err);
    input.setAttribute("aria-describedby", described.join(" "));
    return { param: p, input: input, error: err, node: wrap };
  }

  // check validates one field as the server will: required unless optional, then the
  // parameter's own regular expression, with its validationMessage.
  function check(f) {
    const v = f.input.value;
    let msg = "";
    if (!v) {
      if (!f.param.optional) msg = T.required;
    } else if (f.param.validation) {
      let re = null;
      try { re = new RegExp(f.param.validation); } catch (e) { re = null; }
      if (re && !re.test(v)) msg = said(f.param.validationMessage) || T.invalid;
    }
    f.input.setCustomValidity(msg);
    f.error.textContent = msg;
    f.error.hidden = !msg;
    f.input.setAttribute("aria-invalid", msg ? "true" : "false");
    return !msg;
  }

  function form(s, params, values, submitText, onSubmit, serverErrors) {
    const fields = params.map((p) => field(p, values && values[p.name]));
    const f = el("form", { novalidate: true, id: "credentials" });
    for (const x of fields) {
      // The server's own check (POST /items answers details naming each parameter).
      const refused = serverErrors && serverErrors[x.param.name];
      if (refused) {
        x.error.textContent = said(refused);
        x.error.hidden = false;
        x.input.setAttribute("aria-invalid", "true");
      }
      f.append(x.node);
      x.input.addEventListener("blur", () => { if (x.input.value) check(x); });
    }
    const submit = el("button", { type: "submit", class: "primary", text: submitText });
    f.append(submit);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const bad = fields.filter((x) => !check(x));
      if (bad.length) {
        alertText(T.fixErrors(bad.length) + " " + bad.map((x) => x.error.textContent).join(" "));
        bad[0].input.focus();
        return;
      }
      const out = {};
      for (const x of fields) if (x.input.value !== "") out[x.param.name] = x.input.value;
      submit.disabled = true;
      try {
        await onSubmit(out);
      } finally {
        submit.disabled = false;
      }
    });
    s.append(f);
    return f;
  }

  return form;
};
