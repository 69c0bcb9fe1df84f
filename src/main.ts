import './refuse-unsupported-node.js';
import { relaunchWithV8Flags } from './v8-flags.js';

// Before the service's modules load: a relaunch replaces this process, so nothing loaded here
// would be of use, and loading it would only delay the start.
relaunchWithV8Flags();
const { configOrExit, serve } = await import('./serve.js');
await serve(configOrExit(process.env));
