// The interpreter module PyScript loads (pyscript.json "interpreter"): Pyodide's own loadPyodide,
// started from a memory snapshot of an already booted Python when this browser keeps one. This is
// glue PyScript cannot do: it passes no options of its own to loadPyodide.
//
// Booting Python inside Pyodide is most of a warm load (~0.6-0.9 s). So the first load boots as usual,
// then, once the page is up, a worker boots a second Pyodide and keeps a snapshot of its memory
// (~31 MB, Cache Storage "bw-pyodide-snapshot"); later loads restore it (~0.2 s). A snapshot holds the
// standard library's zip directory, so it is keyed by the Pyodide version and the zip's central
// directory (a CRC per member), and Pyodide is handed exactly the zip bytes the key was read from.
// `_loadSnapshot`/`_makeSnapshot` are Pyodide's own (private) options; any failure boots plainly.
import { loadPyodide as boot, version } from "/pyodide/314.0.7/pyodide.mjs";

export { version };

const INDEX = new URL("/pyodide/314.0.7/", location.href).href;
const CACHE = "bw-pyodide-snapshot";
const MAKE_AFTER_MS = 3000;

async function snapshotKey(stdlib) {
  const tail = stdlib.slice(Math.max(0, stdlib.byteLength - 262144)); // central directory + end record
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", tail));
  const hex = Array.from(digest.slice(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return new URL(`/__bw__/pyodide-snapshot/${version}/${hex}`, location.href).href; // a key, never fetched
}

export async function loadPyodide(options) {
  const stdlib = await (await fetch(`${INDEX}python_stdlib.zip`)).arrayBuffer();
  const settings = { ...options, indexURL: INDEX, stdLibURL: URL.createObjectURL(new Blob([stdlib])) };
  let cache;
  let key;
  try {
    [cache, key] = await Promise.all([caches.open(CACHE), snapshotKey(stdlib)]);
  } catch {
    return boot(settings); // no Cache Storage or no digest here (not a secure context)
  }
  const kept = await cache.match(key);
  if (kept) {
    try {
      const pyodide = await boot({ ...settings, _loadSnapshot: kept.arrayBuffer() });
      performance.mark("bw:pyodide-from-snapshot");
      return pyodide;
    } catch (error) {
      console.warn("boardweaver: the kept Pyodide snapshot did not start; booting afresh", error);
      await cache.delete(key);
    }
  }
  const pyodide = await boot(settings);
  setTimeout(() => makeSnapshot(key, stdlib), MAKE_AFTER_MS);
  return pyodide;
}

// The worker boots its own Pyodide with `_makeSnapshot` (that instance cannot reach JavaScript
// afterwards, so it cannot be the page's) and keeps its memory.
const WORKER = `
onmessage = async ({ data }) => {
  try {
    const { loadPyodide } = await import(data.index + "pyodide.mjs");
    const stdLibURL = URL.createObjectURL(new Blob([data.stdlib]));
    const pyodide = await loadPyodide({ indexURL: data.index, stdLibURL, _makeSnapshot: true });
    const cache = await caches.open(data.cache);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(data.key, new Response(pyodide.makeMemorySnapshot()));
    postMessage("kept");
  } catch (error) {
    postMessage(String(error));
  }
};`;

function makeSnapshot(key, stdlib) {
  try {
    const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "text/javascript" })), { type: "module" });
    worker.onmessage = ({ data }) => {
      worker.terminate();
      performance.mark(`bw:snapshot-${data === "kept" ? "kept" : "failed"}`);
      if (data !== "kept") console.warn("boardweaver: no Pyodide snapshot kept:", data);
    };
    worker.postMessage({ key, stdlib, index: INDEX, cache: CACHE });
  } catch (error) {
    console.warn("boardweaver: no Pyodide snapshot kept:", error);
  }
}
