// The one sample scenario every app's tests share.
export { sampleScenario } from '@stdreg/server-kit/testing';
