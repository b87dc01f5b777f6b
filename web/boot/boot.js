// The pages' start-up, as a file of its own: the Content-Security-Policy lets scripts come from this origin only,
// never inline. Its data (which chunks to preload for the page opened, and the order in which to run the shell's
// chunks) sits beside it in the page as JSON (`#partsyard-boot`), written by the build (web/vite.config.ts).
(function () {
  var data = JSON.parse(document.getElementById('partsyard-boot').textContent);

  // The chunks of the page at this address: `landing` is keyed by route (`/parts/:partId`: `:name` stands for one
  // segment of the path).
  function landing(pathname) {
    var parts = pathname.split('/').filter(Boolean);
    for (var route in data.landing) {
      var pattern = route.split('/').filter(Boolean);
      var matches =
        pattern.length === parts.length &&
        pattern.every(function (segment, i) {
          return segment.charAt(0) === ':' || segment === parts[i];
        });
      if (matches) return data.landing[route];
    }
    return [];
  }

  // The router fetches a page's chunk only once the app's code has run: start that download now.
  landing(location.pathname).forEach(function (href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    if (data.lowPriority) link.fetchPriority = 'low';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  });

  // The shell's chunks (already downloading: modulepreload links) run one per task, the entry last.
  function run(i) {
    if (i >= data.chunks.length) return;
    var script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = data.chunks[i];
    script.onload = script.onerror = function () {
      setTimeout(function () {
        run(i + 1);
      }, 0);
    };
    document.head.appendChild(script);
  }
  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', function () {
      run(0);
    });
  else run(0);
})();
