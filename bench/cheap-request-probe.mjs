// The report-stall bench's client (bench/report-stall.ts), in a process of its own as a real caller
// is: it sends GET <url> one request after another and records each latency, until it has `count`
// of them or is told to stop, then answers with the latencies. In the service's own process, its
// fetch client and parsing took more than half of the main thread's CPU during an ingest, and were
// counted against the service (docs/performance.md, report-stall).
let stopped = false;
async function run(order) {
  stopped = false;
  const latencies = [];
  while (order.count > 0 ? latencies.length < order.count : !stopped) {
    const started = performance.now();
    const response = await fetch(order.url);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  process.send({ latencies });
}

process.on('message', (order) => {
  if (order.stop) stopped = true;
  else
    run(order).catch((error) => {
      console.error(error);
      process.exit(1);
    });
});
