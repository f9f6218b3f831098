import { APPS, configVariables, hasDatabase, requiredInDeployment } from './support/config-variables';

describe('config variables read from the apps config classes', () => {
  it('finds each app its own variables and the kit ones, with defaults', () => {
    for (const app of APPS) {
      const names = configVariables(app).map((v) => v.name);
      expect(names).toEqual(expect.arrayContaining(['HOST', 'LOG_LEVEL', 'DATABASE_URL', 'SHUTDOWN_TIMEOUT_MS', 'MIGRATE_ON_START']));
      expect(names.filter((n) => n.endsWith('_PORT'))).toHaveLength(1);
    }
    expect(configVariables('identity').find((v) => v.name === 'IDENTITY_PORT')).toEqual({ name: 'IDENTITY_PORT', defaultText: '3003' });
    expect(configVariables('identity').find((v) => v.name === 'REDIS_URL')).toEqual({ name: 'REDIS_URL', defaultText: undefined });
  });

  it('tells which apps have a database and which variables a deployment must set', () => {
    expect(APPS.filter(hasDatabase)).toEqual(['standards-api', 'identity']);
    expect(requiredInDeployment('standards-api', [])).toEqual(
      expect.arrayContaining(['HOST', 'DATABASE_URL', 'IDENTITY_URL', 'IDENTITY_SERVICE_TOKEN']),
    );
    expect(requiredInDeployment('mcp-gateway', [])).not.toContain('DATABASE_URL');
    expect(requiredInDeployment('identity', ['REDIS_URL'])).not.toContain('REDIS_URL');
    expect(requiredInDeployment('identity', [])).not.toContain('IDENTITY_PORT');
  });
});
