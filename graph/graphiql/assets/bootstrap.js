// Starts GraphiQL. It lives in a file rather than inline in the page so the
// Content-Security-Policy can refuse every inline script; the endpoint reaches it through
// the page's data-endpoint attribute for the same reason.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var endpoint = root.getAttribute('data-endpoint');

  // A key may arrive as ?apiKey=... so a link can open a ready-to-use IDE. It is dropped
  // from the address bar at once to keep it out of history, bookmarks and shared links.
  var params = new URLSearchParams(window.location.search);
  var apiKey = params.get('apiKey') || '';
  if (params.has('apiKey')) {
    params.delete('apiKey');
    var rest = params.toString();
    window.history.replaceState(null, '', window.location.pathname + (rest ? '?' + rest : '') + window.location.hash);
  }

  // The Headers editor starts with the header the API wants, so the developer only has to
  // paste the key. The fetcher also carries it because the Headers editor may be edited
  // away; GraphiQL lets the editor's headers override these.
  // A link may carry the operation to open (?query=, ?variables=, ?operationName=), as
  // GraphiQL's own examples share queries; it replaces what the editor last held.
  var query = params.get('query');
  var variables = params.get('variables');
  var operationName = params.get('operationName');

  var headers = { 'X-API-KEY': apiKey };
  var fetcher = GraphiQL.createFetcher({ url: endpoint, headers: apiKey ? headers : {} });

  // GraphiQL's CodeMirror editors miss two things a keyboard or screen reader user needs
  // (axe: label, scrollable-region-focusable): their input has no name, and their scrolling
  // part is out of the tab order, so a long answer cannot be scrolled without a mouse.
  // Editors come and go with tabs and tools, so every change is looked at.
  function editorName(cm) {
    if (cm.closest('.graphiql-query-editor')) return 'Query';
    if (cm.closest('.graphiql-response')) return 'Response';
    var tool = cm.closest('.graphiql-editor-tool');
    if (tool) {
      // The Variables editor comes before the Headers editor.
      var editors = Array.prototype.slice.call(tool.querySelectorAll('.graphiql-editor'));
      return editors.indexOf(cm.closest('.graphiql-editor')) === 0 ? 'Variables' : 'Headers';
    }
    return 'Editor';
  }
  function repairEditors() {
    root.querySelectorAll('.CodeMirror').forEach(function (cm) {
      var input = cm.querySelector('textarea');
      if (input && !input.hasAttribute('aria-label')) input.setAttribute('aria-label', editorName(cm));
      var scroller = cm.querySelector('.CodeMirror-scroll');
      if (scroller && scroller.getAttribute('tabindex') !== '0') scroller.setAttribute('tabindex', '0');
    });
  }
  new MutationObserver(repairEditors).observe(root, { childList: true, subtree: true });

  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      query: query === null ? undefined : query,
      variables: variables === null ? undefined : variables,
      operationName: operationName === null ? undefined : operationName,
      defaultHeaders: JSON.stringify(headers, null, 2),
      // Headers hold a credential: never write them to localStorage.
      shouldPersistHeaders: false,
      // Without a key the first thing to do is to enter one, so show where.
      defaultEditorToolsVisibility: apiKey ? false : 'headers',
      defaultQuery: '# Put your API key (from POST /auth) in the Headers tab as X-API-KEY.\n' +
        '{\n  connectors(filter: {sandbox: true}) {\n    total\n    results { id name type health { status } }\n  }\n}\n'
    })
  );
})();
