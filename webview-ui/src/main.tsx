import { render } from 'preact';

render(<div>Switchboard</div>, document.getElementById('root')!);
