// Whether an ethereumjs emitter has a listener for a topic: asked for every EVM step ('step') and
// message ('beforeMessage' …), ~120 times per eth_call. ethereumjs' emitters are eventemitter3's,
// whose listenerCount looks the topic up in a dictionary (~12 ns); `_eventsCount`, the number of
// topics with listeners, answers at once when there are none, as in every eth_call. An emitter
// without that field is asked the usual way.
export interface Emitter {
  listenerCount(topic: string): number;
  _eventsCount?: number;
}

export function listening(events: Emitter, topic: string): boolean {
  return events._eventsCount !== 0 && events.listenerCount(topic) > 0;
}
