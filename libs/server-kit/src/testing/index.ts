export * from './test-database';
export * from './test-service';
export * from './tcp-proxy';
export * from './form-browser';
export * from './built-service';
export * from './oidc-sign-in';
export * from './chromium';
export * from './sample-scenario';
