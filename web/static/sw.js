// Offline shell: the one piece of JavaScript the client needs. The page itself fills the
// "bw-shell" cache (see boardweaver_web/storage.py cache_shell); this worker answers from it
// when the network is gone. Versioned paths (the runtimes, the wheels, the client under its version) are
// served from the cache first.
const CACHE = "bw-shell";
const IMMUTABLE = ["/pyodide/", "/pyscript/", "/wheels/"];
const CLIENT = /^\/static\/v[0-9a-f]{12}\//; // the client's files under its version (boardweaver_server/static.py)

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function shellKey(url) {
  // Every room (or review) page is the same HTML: keep one copy for all ids.
  const parts = url.pathname.split("/");
  return parts.length >= 3 && (parts[1] === "room" || parts[1] === "game") ? `/${parts[1]}/__shell__` : null;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.startsWith("/ws/")) return;
  if (IMMUTABLE.some((prefix) => url.pathname.startsWith(prefix)) || CLIENT.test(url.pathname)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      const key = shellKey(url);
      if (response.ok && !url.pathname.startsWith("/api/rooms")) {
        cache.put(request, response.clone());
        if (key && (response.headers.get("content-type") || "").includes("text/html")) cache.put(key, response.clone());
      }
      return response;
    } catch (error) {
      const hit = await cache.match(request, { ignoreSearch: true });
      const key = shellKey(url);
      const shell = key ? await cache.match(key) : undefined;
      if (hit || shell) return hit || shell;
      throw error;
    }
  })());
});
