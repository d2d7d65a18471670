// geth's bundled JavaScript tracers (eth/tracers/js/internal/tracers/*.js), by the names geth
// gives them (the file name in camel case): a `tracer` naming one runs its code. Only those whose
// code is short enough to state exactly are here; geth's callTracerLegacy, prestateTracerLegacy,
// evmdisTracer, bigramTracer and trigramTracer are not (their names are then evaluated as code,
// as any other name: `ReferenceError: … is not defined`). The native callTracer, prestateTracer,
// 4byteTracer and noopTracer cover what the legacy ones did.
export const JS_TRACER_SOURCES: Record<string, string> = {
  // opcount_tracer.js: the number of EVM instructions executed.
  opcountTracer: `{
	// count tracks the number of EVM instructions executed.
	count: 0,
	// step is invoked for every opcode that the VM executes.
	step: function(log, db) { this.count++ },
	// fault is invoked when the actual execution of an opcode fails.
	fault: function(log, db) { },
	// result is invoked when all the opcodes have been iterated over and returns
	// the final result of the tracing.
	result: function(ctx, db) { return this.count }
}`,
  // unigram_tracer.js: how many times each opcode ran.
  unigramTracer: `{
	// hist is the map of opcodes to counters
	hist: {},
	// nops counts number of ops
	nops: 0,
	// step is invoked for every opcode that the VM executes.
	step: function(log, db) {
		var op = log.op.toString();
		if (this.hist[op]){
			this.hist[op]++;
		}
		else {
			this.hist[op] = 1;
		}
		this.nops++;
	},
	// fault is invoked when the actual execution of an opcode fails.
	fault: function(log, db) {},
	// result is invoked when all the opcodes have been iterated over and returns
	// the final result of the tracing.
	result: function(ctx) {
		return this.hist;
	},
}`,
  // noop_tracer_legacy.js: nothing, as a JavaScript tracer.
  noopTracerLegacy: `{
	// step is invoked for every opcode that the VM executes.
	step: function(log, db) { },
	// fault is invoked when the actual execution of an opcode fails.
	fault: function(log, db) { },
	// result is invoked when all the opcodes have been iterated over and returns
	// the final result of the tracing.
	result: function(ctx, db) { return {}; }
}`,
};
