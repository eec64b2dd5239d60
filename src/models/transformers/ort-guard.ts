/**
 * Works around an upstream bug in the web build of Transformers.js 4.x: session creations and
 * session runs are serialised on module-level promise chains
 * (`webInitChain = webInitChain.then(load)`, `webInferenceChain = webInferenceChain.then(run)`),
 * so a single rejection poisons the chain and every later session creation — or run — in the
 * worker fails with that same error (huggingface/transformers.js#1767, #1635). Without this, a
 * damaged cached file could never be recovered by evicting and retrying, nor a failed WebGPU
 * session by falling back to WASM, without restarting the worker.
 *
 * The guard wraps onnxruntime's `InferenceSession.create` and `InferenceSession.prototype.run` so
 * the chained promise always fulfils. On failure it fulfils with a poisoned value that rethrows the
 * original error the moment Transformers.js touches it (`session.config = …` right after the
 * chain, `for (… in output)` right after a run) — outside the chain, so the caller still sees the
 * real error and the chain stays healthy. Node (onnxruntime-node) has no such chain and is left as is.
 */

type AsyncFn = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/** The shape of an onnxruntime module we patch (`onnxruntime-web` or `onnxruntime-node`). */
export interface OrtModuleLike {
  readonly InferenceSession: { create: AsyncFn; readonly prototype: { run: AsyncFn } };
}

const GUARDED = Symbol.for('evident.ort-chain-guard');

/** A value that is not a thenable and throws `err` on any other use. */
export function poisoned(err: unknown): object {
  const fail = (): never => {
    throw err;
  };
  return new Proxy(
    {},
    {
      // `then` must read as undefined, or awaiting the value would call the trap as a thenable.
      get: (_target, prop) => (prop === 'then' ? undefined : fail()),
      set: fail,
      has: fail,
      ownKeys: fail,
      getOwnPropertyDescriptor: fail,
      defineProperty: fail,
      deleteProperty: fail,
    },
  );
}

/** Installs the guard once per onnxruntime module (idempotent). */
export function guardSessionChains(ort: OrtModuleLike): void {
  const session = ort.InferenceSession as OrtModuleLike['InferenceSession'] & { [GUARDED]?: true };
  if (session[GUARDED]) return;
  const create = session.create;
  const run = session.prototype.run;
  session.create = function (this: unknown, ...args: unknown[]) {
    return create.apply(this, args).catch(poisoned);
  };
  session.prototype.run = function (this: unknown, ...args: unknown[]) {
    return run.apply(this, args).catch(poisoned);
  };
  Object.defineProperty(session, GUARDED, { value: true });
}

let installed: Promise<void> | null = null;

/** In the browser: guards the onnxruntime-web module Transformers.js uses (the same instance). */
export function installWebSessionGuard(): Promise<void> {
  installed ??= import('onnxruntime-web/webgpu').then((ort) => guardSessionChains(ort as unknown as OrtModuleLike));
  return installed;
}
