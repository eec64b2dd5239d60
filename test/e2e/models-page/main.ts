/** Test page entry: starts the model worker and exposes it to the e2e test as `window.models`. */
import * as Comlink from 'comlink';
import type { ModelsPageApi } from './models.worker';

const worker = new Worker(new URL('./models.worker.ts', import.meta.url), { type: 'module' });
(window as unknown as { models: Comlink.Remote<ModelsPageApi> }).models = Comlink.wrap<ModelsPageApi>(worker);
const status = document.getElementById('status');
if (status) {
  status.dataset.state = 'ready';
  status.textContent = `ready (crossOriginIsolated: ${self.crossOriginIsolated})`;
}
