/** Where the walkthrough runs and what it has done so far, step by step, each with its actor. */
export interface PlatformUrls {
  identityUrl: string;
  standardsApiUrl: string;
  mcpUrl: string;
  platformKey: string;
}

export interface StoryStep {
  title: string;
  detail: Record<string, unknown>;
}

export class Story {
  readonly steps: StoryStep[] = [];

  constructor(
    readonly platform: PlatformUrls,
    readonly redirectUri: string,
    private readonly print: (line: string) => void = () => undefined,
  ) {}

  step(title: string, detail: Record<string, unknown>): void {
    this.steps.push({ title, detail });
    this.print(`✓ ${title} ${JSON.stringify(detail)}`);
  }
}

/** What standards-api records as the author of a write by a signed-in person. */
export function expectHumanAuthor(recordedBy: string, uid: string, what: string): void {
  if (recordedBy !== `human:${uid}`) throw new Error(`${what} names ${recordedBy} as its author, not human:${uid}`);
}
