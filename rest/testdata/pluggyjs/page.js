// The host page's script: the application's own front end, calling the API through the
// official browser client with a Connect Token. The test bundles it with esbuild and reads
// window.results once window.done is set.
import Pluggy from "pluggy-js";

// call runs one client method and keeps what the page could see of its answer: the data,
// the API's error body, or, when the browser hid the answer (CORS), status 0.
async function call(name, fn) {
  try {
    const data = await fn();
    return { name, status: 200, data: JSON.parse(JSON.stringify(data === undefined ? null : data)) };
  } catch (e) {
    if (e && e.response) {
      const body = e.response.data || {};
      return { name, status: e.response.status, code: body.codeDescription || "", message: body.message || "" };
    }
    return { name, status: 0, message: String((e && e.message) || e) };
  }
}

// run calls every method of the client once, in the order of its type declarations, with
// the ids the test gives: its own item (and one of its accounts) and another item.
window.run = async (baseUrl, token, ids) => {
  const client = new Pluggy(token, baseUrl);
  const own = ids.item, other = ids.otherItem, account = ids.account;
  const calls = [
    ["fetchConnectors", () => client.fetchConnectors({ sandbox: true, countries: ["BR"], types: ["PERSONAL_BANK"] }, true)],
    ["fetchConnector", () => client.fetchConnector(0)],
    ["fetchItems", () => client.fetchItems()],
    ["fetchItem", () => client.fetchItem(own)],
    ["fetchItem(other)", () => client.fetchItem(other)],
    ["createItem", () => client.createItem(0, { user: "user-ok", password: "password-ok" })],
    ["updateItem", () => client.updateItem(own)],
    ["updateItem(other)", () => client.updateItem(other)],
    ["updateItemMFA", () => client.updateItemMFA(own, { token: "123456" })],
    ["deleteItem", () => client.deleteItem(own)],
    ["fetchAccounts", () => client.fetchAccounts(own)],
    ["fetchAccounts(other)", () => client.fetchAccounts(other)],
    ["fetchAccount", () => client.fetchAccount(account)],
    ["fetchTransactions", () => client.fetchTransactions(account, { from: "2020-01-01", pageSize: 10, page: 1 })],
    ["fetchTransaction", () => client.fetchTransaction(ids.transaction)],
    ["fetchInvestments", () => client.fetchInvestments(own)],
    ["fetchInvestment", () => client.fetchInvestment(ids.investment)],
    ["fetchIdentity", () => client.fetchIdentity(ids.identity)],
    ["fetchIdentityByItemId", () => client.fetchIdentityByItemId(own)],
    ["fetchCategories", () => client.fetchCategories()],
    ["fetchCategory", () => client.fetchCategory("01000000")],
    ["createConnectToken", () => client.createConnectToken(own)],
  ];
  const results = [];
  for (const [name, fn] of calls) {
    results.push(await call(name, fn));
  }
  return results;
};

// connect is what a front end does with a fresh token: create the item on a connector that
// asks for a one-time code, wait for the question, answer it, and wait for the item to be
// updated. It returns the answers of each step (polls of the item's status are not kept).
window.connect = async (baseUrl, token, connectorId, parameters, mfa) => {
  const client = new Pluggy(token, baseUrl);
  const steps = [];
  const created = await call("createItem", () => client.createItem(connectorId, parameters));
  steps.push(created);
  if (created.status !== 200) return steps;
  const id = created.data.id;
  const until = async (status) => {
    for (;;) {
      const r = await call("fetchItem", () => client.fetchItem(id));
      if (r.status !== 200 || r.data.status === status || r.data.status === "LOGIN_ERROR" || r.data.status === "OUTDATED") return r;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  steps.push(await until("WAITING_USER_INPUT"));
  steps.push(await call("updateItemMFA", () => client.updateItemMFA(id, mfa)));
  steps.push(await until("UPDATED"));
  steps.push(await call("fetchAccounts", () => client.fetchAccounts(id)));
  return steps;
};
