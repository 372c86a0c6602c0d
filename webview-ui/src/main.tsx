import { render } from 'preact';
import type { HostToWebviewMessage } from '../../src/shared/messages';
import { App } from './components/App';
import { ChatStore } from './store';
import './styles.css';

const store = new ChatStore();
window.addEventListener('message', (e: MessageEvent<HostToWebviewMessage>) => {
  const data = e.data;
  if (data && typeof data === 'object' && typeof data.type === 'string') store.receive(data);
});
window.addEventListener('error', (e) => store.post({ type: 'log', level: 'error', message: String(e.message) }));
window.addEventListener('pagehide', () => store.ui.persistNow());
render(<App store={store} />, document.getElementById('root')!);
store.start();
