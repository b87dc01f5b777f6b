import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks TextEncoder/TextDecoder, which react-router needs when it loads: import this file first.
Object.assign(globalThis, { TextEncoder, TextDecoder });
