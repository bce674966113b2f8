// Imported first by main.ts so that this line runs before the bundled libraries are evaluated:
// activation time then covers loading the bundle as well as activate() itself.
export const bundleLoadStartedAt = performance.now();
