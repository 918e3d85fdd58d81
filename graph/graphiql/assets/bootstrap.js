// Starts GraphiQL against the endpoint named in the page's data-endpoint attribute. Kept out
// of the HTML so the Content-Security-Policy can forbid every inline script.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var endpoint = root.getAttribute('data-endpoint');
  var headers = { 'X-API-KEY': '' };
  var apiKey = new URLSearchParams(window.location.search).get('apiKey');
  if (apiKey) {
    headers['X-API-KEY'] = apiKey;
  }
  var fetcher = GraphiQL.createFetcher({ url: endpoint, headers: apiKey ? headers : undefined });
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultHeaders: JSON.stringify(headers, null, 2),
      shouldPersistHeaders: !apiKey,
      defaultEditorToolsVisibility: apiKey ? false : 'headers',
      defaultQuery: '# Put your API key (from POST /auth) in the Headers tab as X-API-KEY.\n' +
        '{\n  connectors(filter: {sandbox: true}) {\n    total\n    results { id name type health { status } }\n  }\n}\n'
    })
  );
})();
