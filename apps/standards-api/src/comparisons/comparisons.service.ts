import { Injectable } from '@nestjs/common';
import { type ComparedAmountDto, type ScenarioComparisonDto, type ScenarioComparisonRequestDto } from '@stdreg/contracts';
import { compareScenarios, type ComparedAmount, type ScenarioContent, SplitEngineError, validateScenario } from '@stdreg/split-engine';
import type { Caller } from '../callers/caller';
import { SplitProjectsService } from '../split-projects/split-projects.service';
import { notComparable, scenarioNotInProject } from './comparisons.errors';

interface ComparedRevision {
  scenarioId: string;
  revision: number;
  label: string;
  rulesDigest: string;
  content: ScenarioContent;
}

/** Compares scenario revisions of one project with the split engine; a read: it stores nothing. */
@Injectable()
export class ComparisonsService {
  constructor(private readonly projects: SplitProjectsService) {}

  async compare(projectId: string, request: ScenarioComparisonRequestDto, auth: Caller): Promise<ScenarioComparisonDto> {
    await this.projects.requireProject(projectId, auth);
    const compared: ComparedRevision[] = [];
    for (const ref of request.scenarios) compared.push(await this.revisionOf(projectId, ref.scenarioId, ref.revision, auth));
    const comparison = this.engineCompare(compared);
    const column = (index: number) => ({
      scenarioId: compared[index]!.scenarioId,
      revision: compared[index]!.revision,
      label: compared[index]!.label,
    });
    return {
      projectId,
      currency: comparison.currency,
      scenarios: comparison.scenarios.map((scenario, index) => ({
        ...column(index),
        rulesDigest: compared[index]!.rulesDigest,
        periods: scenario.periods,
        distributable: wire(scenario.distributable),
        difference: wire(scenario.difference),
      })),
      participants: comparison.participants.map((participant) => ({
        participantId: participant.participantId,
        columns: participant.columns.map((cell, index) => ({
          ...column(index),
          present: cell.present,
          total: wire(cell.total),
          difference: wire(cell.difference),
        })),
      })),
    };
  }

  private async revisionOf(projectId: string, scenarioId: string, revision: number | undefined, auth: Caller): Promise<ComparedRevision> {
    const found = await this.projects.scenarioAt(auth.organizationId, scenarioId, revision);
    if (found.scenario.projectId !== projectId) {
      throw scenarioNotInProject(scenarioId, projectId);
    }
    const validation = validateScenario(found.revision.content);
    if (!validation.ok) {
      // A revision stored before the bound on a settlement's payments may settle more than any comparison works out.
      const overBound = validation.errors.find((error) => error.code === 'too_many_items' && error.path === '');
      if (overBound) throw notComparable(`revision ${found.revision.revision} of scenario ${scenarioId}: ${overBound.message}`);
      // Every other stored revision was validated on the way in; failing here means the stored data is damaged.
      throw new Error(`stored revision ${found.revision.revision} of scenario ${scenarioId} is not valid content`);
    }
    return {
      scenarioId,
      revision: found.revision.revision,
      label: `${found.scenario.name} r${found.revision.revision}`,
      rulesDigest: found.revision.rulesDigest,
      content: validation.scenario,
    };
  }

  private engineCompare(compared: ComparedRevision[]) {
    try {
      return compareScenarios(compared.map(({ label, content }) => ({ label, scenario: content })));
    } catch (error) {
      if (error instanceof SplitEngineError) throw notComparable(error.message);
      throw error;
    }
  }
}

function wire(amount: ComparedAmount): ComparedAmountDto {
  return { amount: amount.amount, minorUnits: amount.minorUnits.toString() };
}
