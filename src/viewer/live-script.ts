// The run page's live update: the browser follows the run's event stream (GET /v1/runs/:id/events, the same
// SSE the CLI reads) and, at most once a second, fetches the page again and swaps in its run section, so every
// number on the page is the server's. It is inline under the page's CSP nonce; it is plain ES2020 text because
// it runs in the browser, not in the Worker or Node that serve it. A field of the run section being typed in is
// never swapped away.
export const liveScript = (eventsUrl: string): string => `(() => {
  const events = new EventSource(${JSON.stringify(eventsUrl)});
  let timer = null;
  const refresh = async () => {
    timer = null;
    // Someone typing in the task search keeps what they typed: the swap waits until they leave the field.
    const focused = document.activeElement;
    if (focused && focused.matches('#run-body input, #run-body select')) { soon(); return; }
    const response = await fetch(location.href, { headers: { accept: 'text/html' } });
    if (!response.ok) return;
    const next = new DOMParser().parseFromString(await response.text(), 'text/html').getElementById('run-body');
    const current = document.getElementById('run-body');
    if (next && current) current.replaceWith(next);
  };
  const soon = () => { if (timer === null) timer = setTimeout(refresh, 1000); };
  events.addEventListener('simulation', soon);
  events.addEventListener('status', (e) => {
    if (JSON.parse(e.data).status !== 'running') { events.close(); clearTimeout(timer); refresh(); } else soon();
  });
})();`;
