// A file the site ships gzipped (the WebAssembly: web/site_pyodide.py), as the browser wants it: a Response of
// its bytes unpacked by the browser's own DecompressionStream. A host that sent the .gz with Content-Encoding: gzip
// had the browser unpack it already: told apart by gzip's first two bytes. Loaded by the service worker (sw.js,
// which keeps the file unpacked in its cache, where the browser also keeps the compiled code) and by the engine's
// worker (worker.js, where there is no service worker).
self.mjcalcUnpacked = async (res, type) => {
  const [probe, body] = res.body.tee();
  const peek = probe.getReader(), head = await peek.read();
  peek.cancel();  // the other branch goes on alone
  const zipped = !!head.value && head.value[0] === 0x1f && head.value[1] === 0x8b;
  return new Response(zipped ? body.pipeThrough(new DecompressionStream("gzip")) : body, { headers: { "content-type": type } });
};
