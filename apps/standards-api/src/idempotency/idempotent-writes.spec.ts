import 'reflect-metadata';
import { type DynamicModule, RequestMethod, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA, MODULE_METADATA } from '@nestjs/common/constants.js';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { loadConfig } from '@stdreg/server-kit';
import { AppModule } from '../app.module';
import { CALLER_REQUIREMENT } from '../callers/caller.guard';
import { StandardsApiConfig } from '../config/standards-api.config';
import { RegistryController } from '../registry/registry.controller';
import { IdempotencyInterceptor } from './idempotency.interceptor';

type ModuleEntry = Type | DynamicModule | Promise<DynamicModule> | { forwardRef: () => Type };

interface Route {
  controller: Type;
  handler: string;
  method: RequestMethod;
  protectedByCaller: boolean;
  interceptors: unknown[];
}

/** Every module of standards-api's app, dynamic ones with what they add, each once. */
function modulesOf(root: DynamicModule): { providers: unknown[]; controllers: Type[] }[] {
  const seen = new Set<unknown>();
  const found: { providers: unknown[]; controllers: Type[] }[] = [];
  const visit = (entry: ModuleEntry): void => {
    if (entry instanceof Promise) throw new Error('an async dynamic module cannot be walked');
    const resolved = 'forwardRef' in entry ? entry.forwardRef() : entry;
    const moduleClass = 'module' in resolved ? resolved.module : resolved;
    const dynamic = 'module' in resolved ? resolved : undefined;
    if (seen.has(dynamic ?? moduleClass)) return;
    seen.add(dynamic ?? moduleClass);
    const metadata = (key: string): unknown[] => (Reflect.getMetadata(key, moduleClass) as unknown[] | undefined) ?? [];
    found.push({
      providers: [...metadata(MODULE_METADATA.PROVIDERS), ...(dynamic?.providers ?? [])],
      controllers: [...(metadata(MODULE_METADATA.CONTROLLERS) as Type[]), ...((dynamic?.controllers ?? []) as Type[])],
    });
    for (const imported of [...metadata(MODULE_METADATA.IMPORTS), ...(dynamic?.imports ?? [])]) visit(imported as ModuleEntry);
  };
  visit(root);
  return found;
}

function routesOf(controller: Type): Route[] {
  const classInterceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, controller) as unknown[] | undefined) ?? [];
  return Object.getOwnPropertyNames(controller.prototype).flatMap((handler) => {
    const method = Reflect.getMetadata(METHOD_METADATA, controller.prototype[handler]) as RequestMethod | undefined;
    if (method === undefined) return [];
    const handlerFunction = controller.prototype[handler] as object;
    const handlerInterceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handlerFunction) as unknown[] | undefined) ?? [];
    return [
      {
        controller,
        handler,
        method,
        protectedByCaller: Reflect.getMetadata(CALLER_REQUIREMENT, handlerFunction) !== undefined,
        interceptors: [...classInterceptors, ...handlerInterceptors],
      },
    ];
  });
}

const app = modulesOf(AppModule.register(loadConfig(StandardsApiConfig, { DATA_DIR: '/nonexistent' })));
const routes = app.flatMap((module) => module.controllers.flatMap(routesOf));

describe('where Idempotency-Key is honoured', () => {
  it('finds the protected POSTs to check', () => {
    expect(routes.filter((route) => route.method === RequestMethod.POST && route.protectedByCaller).length).toBeGreaterThan(5);
  });

  it('on every protected POST', () => {
    const without = routes
      .filter((route) => route.method === RequestMethod.POST && route.protectedByCaller)
      .filter((route) => !route.interceptors.includes(IdempotencyInterceptor))
      .map((route) => `${route.controller.name}.${route.handler}`);
    expect(without).toEqual([]);
  });

  it('by no app-wide interceptor, so anonymous reads are not run through one', () => {
    const appWide = app
      .flatMap((module) => module.providers)
      .filter((provider) => (provider as { provide?: unknown }).provide === APP_INTERCEPTOR);
    expect(appWide).toEqual([]);
    const registryReads = routes.filter((route) => route.controller === RegistryController);
    expect(registryReads.length).toBeGreaterThan(5);
    expect(registryReads.filter((route) => route.interceptors.length > 0)).toEqual([]);
  });
});
