import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type ProtectedResourceMetadata, ProtectedResourceService } from './protected-resource.service';

/**
 * RFC 9728 §3.1: the metadata of the resource `{origin}/mcp` is at `/.well-known/oauth-protected-resource/mcp`;
 * the root form is served too, for clients that look there when the path-suffixed one is missing.
 */
@ApiExcludeController()
@Controller('.well-known/oauth-protected-resource')
export class ProtectedResourceController {
  constructor(private readonly protectedResource: ProtectedResourceService) {}

  @Get(['mcp', ''])
  @Header('Cache-Control', 'public, max-age=300')
  // Public and without credentials, so a browser-based agent may read it from any origin.
  @Header('Access-Control-Allow-Origin', '*')
  metadata(): ProtectedResourceMetadata {
    return this.protectedResource.metadata();
  }
}
