import { describeServedAnswers } from '../src/openapi/served-answers';
import { headerInputProblem, jsonInputProblem, SINGLE_HEADER_FIELDS } from '../src/http/input-policy';

/** The 400 description an operation gets in a service's document. */
function badRequestDescription(): string {
  const document = { paths: { '/things': { post: { requestBody: {}, responses: {} } } } };
  describeServedAnswers(document);
  return (document.paths['/things'].post.responses as Record<string, { description: string }>)['400']!.description;
}

describe("the 400 every operation's document describes", () => {
  it('says every rule of the input policy, the header fields a request holds once and the numbers a body may not hold included', () => {
    const description = badRequestDescription();
    for (const field of SINGLE_HEADER_FIELDS) {
      expect(headerInputProblem([field, 'a', field, 'a'])?.field).toBe(field.toLowerCase());
      expect(description).toContain(field);
    }
    expect(headerInputProblem(['Host', 'a b'])).not.toBeNull();
    expect(description).toContain('a `Host` that is no host with an optional port');
    expect(jsonInputProblem(JSON.parse('[1e400]'))).not.toBeNull();
    expect(description).toContain('a number beyond the range of a double (`1e400`)');
  });
});
