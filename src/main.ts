import './refuse-unsupported-node.js';
import 'reflect-metadata';
import { configOrExit, serve } from './serve.js';

await serve(configOrExit(process.env));
