/** Gatehouse's SDK under the names @stackframe/js exports, for the type-level test (stack-api.sample.ts). */
export { ClientApp as StackClientApp } from '../../sdk/index.ts';
