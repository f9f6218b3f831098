export enum KeyClass {
  App = 'app',
  Platform = 'platform',
}

export const KEY_CLASSES = Object.values(KeyClass);
