// jsdom lacks TextEncoder/TextDecoder, which react-router reads when it loads; set before any test imports.
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
