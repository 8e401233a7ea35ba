/** `gatehouse-react`: the React bindings of the SDK plus the components. */
export * from '../sdk/react.tsx';
export * from './index.ts';
