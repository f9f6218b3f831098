import type { Participant } from '../scenario-content';
import { child, FirstUses, namedItem, type Place, type ValidationIssues } from './issues';
import { readKebabId, readList, readLocalized, readRecord, readText, everyRead } from './primitives';

export const MAX_PARTICIPANTS = 100;

export interface ParticipantsReading {
  participants: Participant[] | undefined;
  /** Every well-formed participantId listed, so tiers can be checked even when a participant has other errors. */
  knownIds: ReadonlySet<string> | undefined;
}

const listPlace: Place = { path: '/participants', label: 'participants' };

export function readParticipants(value: unknown, issues: ValidationIssues): ParticipantsReading {
  const before = issues.count;
  const list = readList(value, listPlace, { min: 1, max: MAX_PARTICIPANTS, noun: 'participant' }, issues);
  if (list === undefined) return { participants: undefined, knownIds: undefined };
  const firstUses = new FirstUses();
  const participants = list.map((raw, index) => {
    const place = namedItem(listPlace, index, raw, 'participantId', 'participant');
    const record = readRecord(raw, place, { required: ['participantId', 'name', 'legalEntityId'], optional: ['role'] }, issues);
    if (record === undefined) return undefined;
    const participantId = readKebabId(record['participantId'], child(place, 'participantId'), issues);
    if (participantId !== undefined) {
      const first = firstUses.claim(participantId, index);
      if (first !== undefined) {
        issues.report(
          `${place.path}/participantId`,
          'duplicate_participant_id',
          `${place.label} repeats the participantId of participants[${first}]`,
        );
      }
    }
    return readParticipantDetails(record, place, participantId, issues);
  });
  return {
    participants: issues.count === before ? everyRead(participants) : undefined,
    knownIds: firstUses.ids,
  };
}

function readParticipantDetails(
  record: Record<string, unknown>,
  place: Place,
  participantId: string | undefined,
  issues: ValidationIssues,
): Participant | undefined {
  const name = readLocalized(record['name'], child(place, 'name'), issues);
  const legalEntityId = readText(record['legalEntityId'], child(place, 'legalEntityId'), 200, issues);
  const role = readText(record['role'], child(place, 'role'), 100, issues);
  if (participantId === undefined || name === undefined || legalEntityId === undefined) return undefined;
  if (record['role'] !== undefined && role === undefined) return undefined;
  return role === undefined ? { participantId, name, legalEntityId } : { participantId, name, legalEntityId, role };
}
