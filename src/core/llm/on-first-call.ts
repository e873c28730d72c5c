// A value that takes a dynamic import to build (a provider's SDK client), built on the first call that needs it and
// kept. The SDKs of the providers other than the default route are a large part of the Worker bundle's code; reached
// only this way, an isolate that never calls them never evaluates them.
export const onFirstCall = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
};
